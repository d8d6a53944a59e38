// STREAM's triad: a[i] = b[i] + s * c[i] over N doubles.
//   hml ecm --machine genoa_epyc_9654 --kernel examples/ecm/stream-triad.c -D N=10000000
double a[N], b[N], c[N];
double s;

for (int i = 0; i < N; ++i)
  a[i] = b[i] + s * c[i];
