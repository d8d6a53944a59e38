double a[M][N], b[M][N], c[2][M][N], s;
for (int j = 1; j < M - 1; ++j)
  for (int i = 1; i < N - 1; ++i)
    b[j][i] = (c[0][j][i] * a[j][i - 1] + c[1][j][i] * a[j - 1][i]) * s;
