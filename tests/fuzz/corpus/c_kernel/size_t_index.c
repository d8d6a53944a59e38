double a[N];
for (size_t i = 0; i < N; ++i) a[i] = 1.0;
