// kerncraft's triad.c: Schönauer's vector triad, a[i] = b[i] + c[i] * d[i], over N doubles.
//   hml ecm --machine snb_e5_2680 --kernel examples/ecm/triad.c -D N=10000000
double a[N], b[N], c[N], d[N];

for (int i = 0; i < N; ++i)
  a[i] = b[i] + c[i] * d[i];
