float a[N], b[N];
float s;
for (int i = 0; i < N; ++i) a[i] = b[i] * s + s;
