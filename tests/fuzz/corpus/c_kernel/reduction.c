float a[N], s;
int i;
for (i = 0; i <= N - 1; i = i + 1)
  s += a[i] * a[i];
