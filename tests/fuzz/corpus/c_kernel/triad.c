
for (int i = 0; i < N; ++i)
  a[i] = b[i] + c[i] * d[i];
