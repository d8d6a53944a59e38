const double b[N] = {0}; double a[N];
for (int i = 0; i < N; ++i)
  a[i] = b[i];
