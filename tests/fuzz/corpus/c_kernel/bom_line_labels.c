double a[N], b[N];
#line 40 "x"
for (int i = 0; i < N; ++i) L: M: a[i] = b[i] > 0 ? b[i] : -b[i];
