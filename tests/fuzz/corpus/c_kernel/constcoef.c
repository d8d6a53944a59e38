double a[N], b[N], w[3];
for (int i = 1; i < N - 1; ++i)
  b[i] = w[0] * a[i - 1] + w[1] * a[i] + w[2] * a[i + 1];
