// A strided read: a[i] = s * b[S * i] over N doubles, every S-th element of b (S = 1 is a scale, S = 8 reads
// one double per 64 B line). b's stream moves S lines per cache line of work, 8 at most.
//   hml ecm --machine snb_e5_2680 --kernel examples/ecm/scale-strided.c -D N=10000000 -D S=2
double a[N], b[S * N];
double s;

for (int i = 0; i < N; ++i)
  a[i] = s * b[S * i];
