// kerncraft's 2d-5pt.c (examples/kernels/2d-5pt.c): a 2D 5-point stencil over M rows of N doubles, the
// kernel of PMBS'15 Table 5. The sizes come from the command line:
//   hml ecm --machine snb_e5_2680 --kernel examples/ecm/2d-5pt.c -D M=1000 -D N=2000
double a[M][N];
double b[M][N];
double s;

for (int j = 1; j < M - 1; ++j)
  for (int i = 1; i < N - 1; ++i)
    b[j][i] = (a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i]) * s;
