double a[M * N], b[M * N], s;
for (int j = 1; j < M - 1; ++j)
  for (int i = 1; i < N - 1; ++i)
    b[j * N + i] = (a[j * N + i - 1] + a[(j + 1) * N + i]) * s;
