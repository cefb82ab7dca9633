// Mandelbrot iteration counts in Q12 fixed point: every pixel's loop runs a
// different number of times (a data-dependent loop exit) and each pixel is
// colored through an if/else chain. The host computes the same function as
// the reference.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <vector>

constexpr int Width = 48, Height = 32, MaxIter = 64;

__host__ __device__ int escapeTime(int Px, int Py) {
  int Cx = -2 * 4096 + Px * (3 * 4096) / Width;
  int Cy = -1 * 4096 + Py * (2 * 4096) / Height;
  int X = 0, Y = 0, N = 0;
  while (N < MaxIter && X * X / 4096 + Y * Y / 4096 <= 4 * 4096) {
    int Xt = X * X / 4096 - Y * Y / 4096 + Cx;
    Y = 2 * X * Y / 4096 + Cy;
    X = Xt;
    ++N;
  }
  return N;
}

__host__ __device__ char shade(int N) {
  if (N >= MaxIter)
    return '#';
  if (N > 16)
    return '+';
  if (N > 4)
    return '.';
  return ' ';
}

__global__ void render(char *Out) {
  int Px = blockIdx.x * blockDim.x + threadIdx.x;
  int Py = blockIdx.y * blockDim.y + threadIdx.y;
  if (Px >= Width || Py >= Height)
    return;
  Out[Py * Width + Px] = shade(escapeTime(Px, Py));
}

int main() {
  char *D;
  hipMalloc(&D, Width * Height);
  hipMemset(D, '?', Width * Height);
  dim3 Block(4, 4), Grid((Width + 3) / 4, (Height + 3) / 4);
  render<<<Grid, Block>>>(D);
  std::vector<char> Img(Width * Height);
  hipMemcpy(Img.data(), D, Width * Height, hipMemcpyDeviceToHost);
  int Bad = 0;
  for (int Y = 0; Y < Height; ++Y) {
    for (int X = 0; X < Width; ++X)
      Bad += Img[Y * Width + X] != shade(escapeTime(X, Y));
    if (Y % 2 == 0)
      std::printf("  %.*s\n", Width, &Img[Y * Width]);
  }
  std::printf("mandelbrot: %s (%d of %d pixels wrong)\n", Bad ? "FAILED" : "PASSED",
              Bad, Width * Height);
  return Bad != 0;
}
