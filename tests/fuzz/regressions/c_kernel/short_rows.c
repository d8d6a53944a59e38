double a[M][N];

for (int j = 0; j < M; ++j)
  for (int i = 0; i < 4; ++i)
    a[j][i] = a[j][i] + 1;
