double a[N], b[4 * N], s;
for (int i = 1; i < N; ++i)
  a[i] = s * (b[4 * i] + b[4 * i - 1]);
