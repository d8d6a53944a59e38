// INSPECT's 3D 7-point Jacobi stencil (radius 1, isotropic, constant coefficient, double), as INSPECT lists its
// kerncraft input (RRZE-HPC/INSPECT, stencils/3D/1r/isotropic/star/constant/double):
//   hml ecm --machine ivb_e5_2660v2 --kernel examples/ecm/3d-7pt.c -D M=100 -D N=100 -D P=100
double a[M][N][P];
double b[M][N][P];
double c0;

for (int k = 1; k < M - 1; k++)
  for (int j = 1; j < N - 1; j++)
    for (int i = 1; i < P - 1; i++)
      b[k][j][i] = c0 * (a[k][j][i] + a[k][j][i - 1] + a[k][j][i + 1] + a[k - 1][j][i] + a[k + 1][j][i] + a[k][j - 1][i] + a[k][j + 1][i]);
