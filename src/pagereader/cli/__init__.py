"""The command line.

Its processes compute on the models' own thread pools (OpenVINO, onnxruntime, Tesseract) and
use numpy's BLAS only for tiny arrays, yet OpenBLAS starts a pool of one thread a core when
numpy is imported, which spins for about 0.1 CPU-second a process. So the command line asks
for one BLAS thread, unless the user's environment says otherwise."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
