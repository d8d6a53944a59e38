// INSPECT's 3D 13-point star stencil (radius 2, isotropic, constant coefficient, double), as INSPECT lists its
// kerncraft input (RRZE-HPC/INSPECT, stencils/3D/2r/isotropic/star/constant/double):
//   hml ecm --machine ivb_e5_2660v2 --kernel examples/ecm/3d-13pt.c -D M=100 -D N=100 -D P=100
double a[M][N][P];
double b[M][N][P];
double c0;

for (int k = 2; k < M - 2; k++)
  for (int j = 2; j < N - 2; j++)
    for (int i = 2; i < P - 2; i++)
      b[k][j][i] = c0 * (a[k][j][i] + a[k][j][i - 1] + a[k][j][i + 1] + a[k - 1][j][i] + a[k + 1][j][i] + a[k][j - 1][i] + a[k][j + 1][i]
                         + a[k][j][i - 2] + a[k][j][i + 2] + a[k - 2][j][i] + a[k + 2][j][i] + a[k][j - 2][i] + a[k][j + 2][i]);
