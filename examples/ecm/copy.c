// kerncraft's copy.c: a[i] = b[i] over N doubles.
//   hml ecm --machine genoa_epyc_9654 --kernel examples/ecm/copy.c -D N=10000000
double a[N], b[N];

for (int i = 0; i < N; ++i)
  a[i] = b[i];
