/* test_io.c — .npy/.npz/CSV round trips, files as NumPy writes them, and
 * corrupt inputs (every one must give a clear error, never a crash). */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensor/io.h"
#include "tensor/tensor.h"

/* Byte-exact files produced the way numpy 1.2x writes them (np.save with the
 * header padding of numpy.lib.format; np.savez through Python's zipfile with
 * force_zip64=True, which puts zip64 extra fields in the local headers):
 *   NPY_F4_NEW        np.save(np.array([1, 2], dtype='<f4'))
 *   NPY_I8_OLD        np.array([[1, 2], [3, 4]]) as numpy < 1.14 wrote it (16-byte alignment)
 *   NPY_B1_SCALAR     np.array(True)
 *   NPY_F8_FORTRAN    np.asfortranarray([[1, 2, 3], [4, 5, 6]], dtype='<f8')
 *   NPY_F8_BIG_ENDIAN np.array([1.5, -2.0], dtype='>f8')
 *   NPY_I4_V2         np.array([7, -8, 9], dtype='<i4') with format version 2.0
 *   NPZ_NUMPY         np.savez(f, a=NPY_F4_NEW's array, b=NPY_I8_OLD's array)
 *   NPZ_DEFLATED      np.savez_compressed(f, a=NPY_F4_NEW's array) */
static const unsigned char NPY_F4_NEW[] = {
    0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x01, 0x00, 0x76, 0x00, 0x7b, 0x27, 0x64, 0x65, 0x73, 0x63,
    0x72, 0x27, 0x3a, 0x20, 0x27, 0x3c, 0x66, 0x34, 0x27, 0x2c, 0x20, 0x27, 0x66, 0x6f, 0x72, 0x74,
    0x72, 0x61, 0x6e, 0x5f, 0x6f, 0x72, 0x64, 0x65, 0x72, 0x27, 0x3a, 0x20, 0x46, 0x61, 0x6c, 0x73,
    0x65, 0x2c, 0x20, 0x27, 0x73, 0x68, 0x61, 0x70, 0x65, 0x27, 0x3a, 0x20, 0x28, 0x32, 0x2c, 0x29,
    0x2c, 0x20, 0x7d, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x0a,
    0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40,
};
static const unsigned char NPY_I8_OLD[] = {
    0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x01, 0x00, 0x46, 0x00, 0x7b, 0x27, 0x64, 0x65, 0x73, 0x63,
    0x72, 0x27, 0x3a, 0x20, 0x27, 0x3c, 0x69, 0x38, 0x27, 0x2c, 0x20, 0x27, 0x66, 0x6f, 0x72, 0x74,
    0x72, 0x61, 0x6e, 0x5f, 0x6f, 0x72, 0x64, 0x65, 0x72, 0x27, 0x3a, 0x20, 0x46, 0x61, 0x6c, 0x73,
    0x65, 0x2c, 0x20, 0x27, 0x73, 0x68, 0x61, 0x70, 0x65, 0x27, 0x3a, 0x20, 0x28, 0x32, 0x2c, 0x20,
    0x32, 0x29, 0x2c, 0x20, 0x7d, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x0a,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const unsigned char NPY_B1_SCALAR[] = {
    0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x01, 0x00, 0x76, 0x00, 0x7b, 0x27, 0x64, 0x65, 0x73, 0x63,
    0x72, 0x27, 0x3a, 0x20, 0x27, 0x7c, 0x62, 0x31, 0x27, 0x2c, 0x20, 0x27, 0x66, 0x6f, 0x72, 0x74,
    0x72, 0x61, 0x6e, 0x5f, 0x6f, 0x72, 0x64, 0x65, 0x72, 0x27, 0x3a, 0x20, 0x46, 0x61, 0x6c, 0x73,
    0x65, 0x2c, 0x20, 0x27, 0x73, 0x68, 0x61, 0x70, 0x65, 0x27, 0x3a, 0x20, 0x28, 0x29, 0x2c, 0x20,
    0x7d, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x0a,
    0x01,
};
static const unsigned char NPY_F8_FORTRAN[] = {
    0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x01, 0x00, 0x76, 0x00, 0x7b, 0x27, 0x64, 0x65, 0x73, 0x63,
    0x72, 0x27, 0x3a, 0x20, 0x27, 0x3c, 0x66, 0x38, 0x27, 0x2c, 0x20, 0x27, 0x66, 0x6f, 0x72, 0x74,
    0x72, 0x61, 0x6e, 0x5f, 0x6f, 0x72, 0x64, 0x65, 0x72, 0x27, 0x3a, 0x20, 0x54, 0x72, 0x75, 0x65,
    0x2c, 0x20, 0x27, 0x73, 0x68, 0x61, 0x70, 0x65, 0x27, 0x3a, 0x20, 0x28, 0x32, 0x2c, 0x20, 0x33,
    0x29, 0x2c, 0x20, 0x7d, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x0a,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x40,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14, 0x40,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18, 0x40,
};
static const unsigned char NPY_F8_BIG_ENDIAN[] = {
    0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x01, 0x00, 0x76, 0x00, 0x7b, 0x27, 0x64, 0x65, 0x73, 0x63,
    0x72, 0x27, 0x3a, 0x20, 0x27, 0x3e, 0x66, 0x38, 0x27, 0x2c, 0x20, 0x27, 0x66, 0x6f, 0x72, 0x74,
    0x72, 0x61, 0x6e, 0x5f, 0x6f, 0x72, 0x64, 0x65, 0x72, 0x27, 0x3a, 0x20, 0x46, 0x61, 0x6c, 0x73,
    0x65, 0x2c, 0x20, 0x27, 0x73, 0x68, 0x61, 0x70, 0x65, 0x27, 0x3a, 0x20, 0x28, 0x32, 0x2c, 0x29,
    0x2c, 0x20, 0x7d, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x0a,
    0x3f, 0xf8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const unsigned char NPY_I4_V2[] = {
    0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x02, 0x00, 0x74, 0x00, 0x00, 0x00, 0x7b, 0x27, 0x64, 0x65,
    0x73, 0x63, 0x72, 0x27, 0x3a, 0x20, 0x27, 0x3c, 0x69, 0x34, 0x27, 0x2c, 0x20, 0x27, 0x66, 0x6f,
    0x72, 0x74, 0x72, 0x61, 0x6e, 0x5f, 0x6f, 0x72, 0x64, 0x65, 0x72, 0x27, 0x3a, 0x20, 0x46, 0x61,
    0x6c, 0x73, 0x65, 0x2c, 0x20, 0x27, 0x73, 0x68, 0x61, 0x70, 0x65, 0x27, 0x3a, 0x20, 0x28, 0x33,
    0x2c, 0x29, 0x2c, 0x20, 0x7d, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x0a,
    0x07, 0x00, 0x00, 0x00, 0xf8, 0xff, 0xff, 0xff, 0x09, 0x00, 0x00, 0x00,
};
static const unsigned char NPZ_NUMPY[] = {
    0x50, 0x4b, 0x03, 0x04, 0x2d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21, 0x00, 0x9a, 0xca,
    0xab, 0xe7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x05, 0x00, 0x14, 0x00, 0x61, 0x2e,
    0x6e, 0x70, 0x79, 0x01, 0x00, 0x10, 0x00, 0x88, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x88,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x01, 0x00, 0x76,
    0x00, 0x7b, 0x27, 0x64, 0x65, 0x73, 0x63, 0x72, 0x27, 0x3a, 0x20, 0x27, 0x3c, 0x66, 0x34, 0x27,
    0x2c, 0x20, 0x27, 0x66, 0x6f, 0x72, 0x74, 0x72, 0x61, 0x6e, 0x5f, 0x6f, 0x72, 0x64, 0x65, 0x72,
    0x27, 0x3a, 0x20, 0x46, 0x61, 0x6c, 0x73, 0x65, 0x2c, 0x20, 0x27, 0x73, 0x68, 0x61, 0x70, 0x65,
    0x27, 0x3a, 0x20, 0x28, 0x32, 0x2c, 0x29, 0x2c, 0x20, 0x7d, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x0a, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, 0x50,
    0x4b, 0x03, 0x04, 0x2d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21, 0x00, 0x94, 0xeb, 0x50,
    0x66, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x05, 0x00, 0x14, 0x00, 0x62, 0x2e, 0x6e,
    0x70, 0x79, 0x01, 0x00, 0x10, 0x00, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x70, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x01, 0x00, 0x46, 0x00,
    0x7b, 0x27, 0x64, 0x65, 0x73, 0x63, 0x72, 0x27, 0x3a, 0x20, 0x27, 0x3c, 0x69, 0x38, 0x27, 0x2c,
    0x20, 0x27, 0x66, 0x6f, 0x72, 0x74, 0x72, 0x61, 0x6e, 0x5f, 0x6f, 0x72, 0x64, 0x65, 0x72, 0x27,
    0x3a, 0x20, 0x46, 0x61, 0x6c, 0x73, 0x65, 0x2c, 0x20, 0x27, 0x73, 0x68, 0x61, 0x70, 0x65, 0x27,
    0x3a, 0x20, 0x28, 0x32, 0x2c, 0x20, 0x32, 0x29, 0x2c, 0x20, 0x7d, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x0a, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x50, 0x4b, 0x01, 0x02, 0x2d, 0x03, 0x2d, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x21, 0x00, 0x9a, 0xca, 0xab, 0xe7, 0x88, 0x00, 0x00, 0x00, 0x88, 0x00,
    0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x01,
    0x00, 0x00, 0x00, 0x00, 0x61, 0x2e, 0x6e, 0x70, 0x79, 0x50, 0x4b, 0x01, 0x02, 0x2d, 0x03, 0x2d,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21, 0x00, 0x94, 0xeb, 0x50, 0x66, 0x70, 0x00, 0x00,
    0x00, 0x70, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x80, 0x01, 0xbf, 0x00, 0x00, 0x00, 0x62, 0x2e, 0x6e, 0x70, 0x79, 0x50, 0x4b, 0x05, 0x06,
    0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x02, 0x00, 0x66, 0x00, 0x00, 0x00, 0x66, 0x01, 0x00, 0x00,
    0x00, 0x00,
};
static const unsigned char NPZ_DEFLATED[] = {
    0x50, 0x4b, 0x03, 0x04, 0x2d, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00, 0x9a, 0xca,
    0xab, 0xe7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x05, 0x00, 0x14, 0x00, 0x61, 0x2e,
    0x6e, 0x70, 0x79, 0x01, 0x00, 0x10, 0x00, 0x88, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4c,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x9b, 0xec, 0x17, 0xea, 0x1b, 0x10, 0xc9, 0xc8, 0x50,
    0xc6, 0x50, 0xad, 0x9e, 0x92, 0x5a, 0x9c, 0x5c, 0xa4, 0x6e, 0xa5, 0xa0, 0x6e, 0x93, 0x66, 0xa2,
    0xae, 0xa3, 0xa0, 0x9e, 0x96, 0x5f, 0x54, 0x52, 0x94, 0x98, 0x17, 0x9f, 0x5f, 0x94, 0x92, 0x0a,
    0x12, 0x77, 0x4b, 0xcc, 0x29, 0x4e, 0x05, 0x8a, 0x17, 0x67, 0x24, 0x16, 0xa4, 0x02, 0xf9, 0x1a,
    0x46, 0x3a, 0x9a, 0x3a, 0x0a, 0xb5, 0x0a, 0x14, 0x00, 0x2e, 0x06, 0x86, 0x06, 0x7b, 0x06, 0x06,
    0x06, 0x07, 0x00, 0x50, 0x4b, 0x01, 0x02, 0x2d, 0x03, 0x2d, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00,
    0x00, 0x21, 0x00, 0x9a, 0xca, 0xab, 0xe7, 0x4c, 0x00, 0x00, 0x00, 0x88, 0x00, 0x00, 0x00, 0x05,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00,
    0x00, 0x61, 0x2e, 0x6e, 0x70, 0x79, 0x50, 0x4b, 0x05, 0x06, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
    0x01, 0x00, 0x33, 0x00, 0x00, 0x00, 0x83, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static char test_dir[256];

static void make_test_dir(void) {
  snprintf(test_dir, sizeof test_dir, "/tmp/ag_test_io.XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(test_dir));
}

/* Removes the test folder, failing if a writer left anything unexpected. */
static void remove_test_dir(void) {
  DIR *d = opendir(test_dir);
  ck_assert_ptr_nonnull(d);
  struct dirent *e;
  char path[512];
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    ck_assert_msg(!strstr(e->d_name, ".tmp."), "temporary file left behind: %s", e->d_name);
    snprintf(path, sizeof path, "%s/%s", test_dir, e->d_name);
    unlink(path);
  }
  closedir(d);
  rmdir(test_dir);
}

static const char *path_in_dir(const char *name) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", test_dir, name);
  return path;
}

static void write_bytes(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(data, 1, n, f), n);
  fclose(f);
}

static void write_text(const char *path, const char *text) { write_bytes(path, text, strlen(text)); }

static unsigned char *read_bytes(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  unsigned char *buf = malloc(1 << 20);
  *n = fread(buf, 1, 1 << 20, f);
  fclose(f);
  return buf;
}

static Tensor *load_bytes(const void *data, size_t n) {
  const char *path = path_in_dir("in.npy");
  write_bytes(path, data, n);
  return tensor_load_npy(path);
}

static Tensor *ramp(DType dt, int ndim, const int64_t *shape) {
  Tensor *t = tensor_empty(dt, ndim, shape);
  ck_assert_ptr_nonnull(t);
  for (int64_t i = 0; i < t->numel; i++)
    tensor_set_flat(t, i, dt == DT_BOOL ? (double)(i % 3 == 0) : (double)i * 1.25 - 3);
  return t;
}

static void assert_same(const Tensor *a, const Tensor *b) {
  ck_assert_int_eq(a->dtype, b->dtype);
  ck_assert_int_eq(a->ndim, b->ndim);
  for (int d = 0; d < a->ndim; d++) ck_assert_int_eq(a->shape[d], b->shape[d]);
  ck_assert_int_eq(a->numel, b->numel);
  for (int64_t i = 0; i < a->numel; i++)
    ck_assert_double_eq(tensor_get_flat(a, i), tensor_get_flat(b, i));
}

static void expect_load_error(const char *contains) {
  ck_assert_msg(strstr(tensor_error(), contains), "error '%s' lacks '%s'", tensor_error(), contains);
}

static void setup(void) { make_test_dir(); }
static void teardown(void) {
  remove_test_dir();
  tensor_free_caches();
}

/* ---- .npy round trips ---- */

START_TEST(npy_round_trip_every_dtype_and_shape) {
  static const int64_t shapes[][3] = {{0}, {5}, {0}, {2, 0, 3}, {2, 3, 4}, {1, 1}};
  static const int ndims[] = {0, 1, 1, 3, 3, 2};
  for (DType dt = DT_BOOL; dt < DT_COUNT; dt++)
    for (size_t k = 0; k < sizeof ndims / sizeof ndims[0]; k++) {
      Tensor *t = ramp(dt, ndims[k], shapes[k]);
      ck_assert(tensor_save_npy(t, path_in_dir("t.npy")));
      Tensor *u = tensor_load_npy(path_in_dir("t.npy"));
      ck_assert_msg(u != NULL, "%s", tensor_error());
      assert_same(t, u);
      tensor_release(t);
      tensor_release(u);
    }
}
END_TEST

START_TEST(npy_int64_extremes_and_float_specials) {
  Tensor *t = tensor_empty(DT_INT64, 1, (int64_t[]){3});
  int64_t *p = tensor_data(t);
  p[0] = INT64_MAX, p[1] = INT64_MIN, p[2] = (1LL << 53) + 1;
  ck_assert(tensor_save_npy(t, path_in_dir("i.npy")));
  Tensor *u = tensor_load_npy(path_in_dir("i.npy"));
  ck_assert_int_eq(memcmp(tensor_data(u), p, 24), 0);
  tensor_release(t);
  tensor_release(u);
  t = tensor_empty(DT_FLOAT64, 1, (int64_t[]){3});
  double *d = tensor_data(t);
  d[0] = NAN, d[1] = -INFINITY, d[2] = -0.0;
  ck_assert(tensor_save_npy(t, path_in_dir("d.npy")));
  u = tensor_load_npy(path_in_dir("d.npy"));
  ck_assert_int_eq(memcmp(tensor_data(u), d, 24), 0);
  tensor_release(t);
  tensor_release(u);
}
END_TEST

START_TEST(npy_writes_what_numpy_writes) {
  Tensor *t = tensor_empty(DT_FLOAT32, 1, (int64_t[]){2});
  tensor_set_flat(t, 0, 1);
  tensor_set_flat(t, 1, 2);
  ck_assert(tensor_save_npy(t, path_in_dir("a.npy")));
  size_t n;
  unsigned char *bytes = read_bytes(path_in_dir("a.npy"), &n);
  ck_assert_uint_eq(n, sizeof NPY_F4_NEW);
  ck_assert_int_eq(memcmp(bytes, NPY_F4_NEW, n), 0);
  free(bytes);
  tensor_release(t);
}
END_TEST

START_TEST(npy_header_layout) {
  static const char *expected[] = {
      "{'descr': '<f8', 'fortran_order': False, 'shape': (), }",
      "{'descr': '|b1', 'fortran_order': False, 'shape': (0,), }",
      "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 0, 3), }"};
  Tensor *ts[3] = {tensor_scalar(DT_FLOAT64, 1), tensor_empty(DT_BOOL, 1, (int64_t[]){0}),
                   tensor_empty(DT_INT64, 3, (int64_t[]){2, 0, 3})};
  for (int i = 0; i < 3; i++) {
    ck_assert(tensor_save_npy(ts[i], path_in_dir("h.npy")));
    size_t n;
    unsigned char *b = read_bytes(path_in_dir("h.npy"), &n);
    ck_assert_int_eq(memcmp(b, "\x93NUMPY\x01\x00", 8), 0);
    size_t hlen = b[8] | (size_t)b[9] << 8;
    ck_assert_uint_eq((10 + hlen) % 64, 0);
    ck_assert_uint_eq(n, 10 + hlen + (size_t)ts[i]->numel * dtype_size(ts[i]->dtype));
    ck_assert_int_eq(memcmp(b + 10, expected[i], strlen(expected[i])), 0);
    for (size_t k = 10 + strlen(expected[i]); k < 9 + hlen; k++) ck_assert_int_eq(b[k], ' ');
    ck_assert_int_eq(b[9 + hlen], '\n');
    free(b);
    tensor_release(ts[i]);
  }
}
END_TEST

START_TEST(npy_saves_strided_views_in_row_major_order) {
  Tensor *base = ramp(DT_FLOAT32, 2, (int64_t[]){2, 3});
  Tensor *tr = tensor_view_of(base, 2, (int64_t[]){3, 2}, (int64_t[]){1, 3}, 0);
  ck_assert(tensor_save_npy(tr, path_in_dir("tr.npy")));
  Tensor *u = tensor_load_npy(path_in_dir("tr.npy"));
  assert_same(tr, u);
  ck_assert(tensor_is_contiguous(u));
  tensor_release(u);
  tensor_release(tr);
  tensor_release(base);
}
END_TEST

/* ---- reading files numpy wrote ---- */

START_TEST(npy_reads_numpy_files) {
  Tensor *t = load_bytes(NPY_F4_NEW, sizeof NPY_F4_NEW);
  ck_assert_ptr_nonnull(t);
  ck_assert_int_eq(t->dtype, DT_FLOAT32);
  ck_assert_int_eq(t->ndim, 1);
  ck_assert_double_eq(tensor_get_flat(t, 1), 2.0);
  tensor_release(t);

  t = load_bytes(NPY_I8_OLD, sizeof NPY_I8_OLD);
  ck_assert_ptr_nonnull(t);
  ck_assert_int_eq(t->dtype, DT_INT64);
  ck_assert_int_eq(t->shape[0], 2);
  ck_assert_int_eq(t->shape[1], 2);
  ck_assert_double_eq(tensor_get_flat(t, 2), 3.0);
  tensor_release(t);

  t = load_bytes(NPY_B1_SCALAR, sizeof NPY_B1_SCALAR);
  ck_assert_ptr_nonnull(t);
  ck_assert_int_eq(t->dtype, DT_BOOL);
  ck_assert_int_eq(t->ndim, 0);
  ck_assert_double_eq(tensor_get_flat(t, 0), 1.0);
  tensor_release(t);
}
END_TEST

START_TEST(npy_reads_fortran_order) {
  Tensor *t = load_bytes(NPY_F8_FORTRAN, sizeof NPY_F8_FORTRAN);
  ck_assert_msg(t != NULL, "%s", tensor_error());
  ck_assert_int_eq(t->dtype, DT_FLOAT64);
  ck_assert_int_eq(t->shape[0], 2);
  ck_assert_int_eq(t->shape[1], 3);
  for (int i = 0; i < 6; i++) ck_assert_double_eq(tensor_get_flat(t, i), i + 1);
  tensor_release(t);
}
END_TEST

START_TEST(npy_reads_big_endian_and_v2_and_int32) {
  Tensor *t = load_bytes(NPY_F8_BIG_ENDIAN, sizeof NPY_F8_BIG_ENDIAN);
  ck_assert_msg(t != NULL, "%s", tensor_error());
  ck_assert_double_eq(tensor_get_flat(t, 0), 1.5);
  ck_assert_double_eq(tensor_get_flat(t, 1), -2.0);
  tensor_release(t);
  t = load_bytes(NPY_I4_V2, sizeof NPY_I4_V2);
  ck_assert_msg(t != NULL, "%s", tensor_error());
  ck_assert_int_eq(t->dtype, DT_INT64);
  ck_assert_double_eq(tensor_get_flat(t, 1), -8);
  ck_assert_double_eq(tensor_get_flat(t, 2), 9);
  tensor_release(t);
}
END_TEST

/* ---- corrupt .npy files ---- */

/* A v1.0 file with the given dict and `data_len` zero bytes of data. */
static Tensor *load_with_header(const char *dict, size_t data_len) {
  unsigned char buf[4096] = {0};
  size_t dlen = strlen(dict);
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (unsigned char)(dlen & 0xff);
  buf[9] = (unsigned char)(dlen >> 8);
  memcpy(buf + 10, dict, dlen);
  return load_bytes(buf, 10 + dlen + data_len);
}

START_TEST(npy_rejects_every_truncation) {
  for (size_t n = 0; n < sizeof NPY_F8_FORTRAN; n++) {
    ck_assert_ptr_null(load_bytes(NPY_F8_FORTRAN, n));
    ck_assert_ptr_nonnull(strstr(tensor_error(), "in.npy"));
  }
  load_bytes(NPY_F8_FORTRAN, sizeof NPY_F8_FORTRAN - 3);
  expect_load_error("truncated");
}
END_TEST

START_TEST(npy_rejects_bad_magic_version_and_header_length) {
  unsigned char b[sizeof NPY_F4_NEW];
  memcpy(b, NPY_F4_NEW, sizeof b);
  b[1] = 'X';
  ck_assert_ptr_null(load_bytes(b, sizeof b));
  expect_load_error("not a .npy file");
  memcpy(b, NPY_F4_NEW, sizeof b);
  b[6] = 9;
  ck_assert_ptr_null(load_bytes(b, sizeof b));
  expect_load_error("version 9.0");
  /* v2 header claiming 2 GiB */
  unsigned char big[16] = {0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 0xff, 0xff, 0xff, 0x7f, '{'};
  ck_assert_ptr_null(load_bytes(big, sizeof big));
  expect_load_error("header too long");
  unsigned char shortv1[40] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 200, 0, '{'};
  ck_assert_ptr_null(load_bytes(shortv1, sizeof shortv1));
  expect_load_error("truncated .npy header");
}
END_TEST

START_TEST(npy_rejects_malformed_dicts) {
  static const struct {
    const char *dict, *error;
  } cases[] = {
      {"{'descr': '<f4', 'fortran_order': False}\n", "needs the keys"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}\n", "unexpected key 'x'"},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}\n", "repeated key"},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }\n", "unsupported dtype '<c8'"},
      {"{'descr': '<f4x', 'fortran_order': False, 'shape': (2,), }\n", "unsupported dtype"},
      {"{'descr': '|f4', 'fortran_order': False, 'shape': (2,), }\n", "unsupported dtype"},
      {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }\n", "True or False"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }\n", "non-negative"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2 3), }\n", "expected ',' or ')'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }\n",
       "absurdly large"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000, 1000000000000), }\n",
       "needs over"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }\n",
       "more than 16 dimensions"},
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }\n", "structured"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } junk\n", "after the closing"},
      {"{'descr: '<f4', 'fortran_order': False, 'shape': (2,), }\n", "malformed"},
      {"['descr']\n", "expected '{'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\n", "truncated"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ck_assert_ptr_null(load_with_header(cases[i].dict, 8));
    expect_load_error(cases[i].error);
  }
  /* too much data is corrupt as well */
  ck_assert_ptr_null(load_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 8));
  expect_load_error("corrupt");
  /* Python 2 long literals and no trailing comma are fine */
  Tensor *t = load_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2L,)}", 8);
  ck_assert_msg(t != NULL, "%s", tensor_error());
  tensor_release(t);
}
END_TEST

START_TEST(npy_rejects_uint64_beyond_int64) {
  unsigned char buf[256];
  const char *dict = "{'descr': '<u8', 'fortran_order': False, 'shape': (1,), }";
  size_t dlen = strlen(dict);
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (unsigned char)dlen;
  buf[9] = 0;
  memcpy(buf + 10, dict, dlen);
  memset(buf + 10 + dlen, 0xff, 8);
  ck_assert_ptr_null(load_bytes(buf, 10 + dlen + 8));
  expect_load_error("does not fit in int64");
}
END_TEST

START_TEST(missing_files_and_bad_paths) {
  ck_assert_ptr_null(tensor_load_npy(path_in_dir("nope.npy")));
  expect_load_error("nope.npy: No such file");
  ck_assert_ptr_null(tensor_load_npy(test_dir));
  expect_load_error("Is a directory");
  Tensor *t = tensor_scalar(DT_FLOAT32, 1);
  ck_assert(!tensor_save_npy(t, path_in_dir("no/such/dir/x.npy")));
  expect_load_error("cannot write");
  mkdir(path_in_dir("sub"), 0755);
  ck_assert(!tensor_save_npy(t, path_in_dir("sub")));
  expect_load_error("rename failed");
  rmdir(path_in_dir("sub"));
  tensor_release(t);
}
END_TEST

START_TEST(writer_replaces_atomically_and_keeps_mode) {
  const char *path = path_in_dir("m.npy");
  write_text(path, "old");
  chmod(path, 0600);
  Tensor *t = tensor_scalar(DT_INT64, 4);
  ck_assert(tensor_save_npy(t, path));
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_int_eq(st.st_mode & 0777, 0600);
  Tensor *u = tensor_load_npy(path);
  assert_same(t, u);
  tensor_release(t);
  tensor_release(u);
}
END_TEST

/* ---- .npz ---- */

static Tensor *find_member(char **names, Tensor **ts, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0) return ts[i];
  return NULL;
}

static void free_members(char **names, Tensor **ts, int n) {
  for (int i = 0; i < n; i++) {
    free(names[i]);
    tensor_release(ts[i]);
  }
  free(names);
  free(ts);
}

START_TEST(npz_reads_numpy_savez) {
  const char *path = path_in_dir("np.npz");
  write_bytes(path, NPZ_NUMPY, sizeof NPZ_NUMPY);
  char **names;
  Tensor **ts;
  int n = tensor_load_npz(path, &names, &ts);
  ck_assert_msg(n == 2, "%s", tensor_error());
  ck_assert_str_eq(names[0], "a");
  ck_assert_str_eq(names[1], "b");
  ck_assert_int_eq(ts[0]->dtype, DT_FLOAT32);
  ck_assert_double_eq(tensor_get_flat(ts[0], 1), 2.0);
  ck_assert_int_eq(ts[1]->dtype, DT_INT64);
  ck_assert_double_eq(tensor_get_flat(ts[1], 3), 4.0);
  free_members(names, ts, n);
}
END_TEST

START_TEST(npz_round_trip) {
  Tensor *ts_in[4] = {ramp(DT_FLOAT32, 2, (int64_t[]){3, 4}), ramp(DT_INT64, 0, NULL),
                      ramp(DT_BOOL, 1, (int64_t[]){7}), ramp(DT_FLOAT64, 2, (int64_t[]){0, 2})};
  const char *names_in[4] = {"fc1.weight", "step", "mask", "empty"};
  const char *path = path_in_dir("m.npz");
  ck_assert_msg(tensor_save_npz(path, names_in, ts_in, 4), "%s", tensor_error());
  char **names;
  Tensor **ts;
  int n = tensor_load_npz(path, &names, &ts);
  ck_assert_msg(n == 4, "%s", tensor_error());
  for (int i = 0; i < 4; i++) {
    ck_assert_str_eq(names[i], names_in[i]);
    assert_same(ts_in[i], find_member(names, ts, n, names_in[i]));
    tensor_release(ts_in[i]);
  }
  free_members(names, ts, n);
  /* an empty archive */
  ck_assert(tensor_save_npz(path, NULL, NULL, 0));
  n = tensor_load_npz(path, &names, &ts);
  ck_assert_int_eq(n, 0);
  free_members(names, ts, n);
}
END_TEST

START_TEST(npz_member_layout_is_numpy_readable) {
  /* members are stored (method 0), named NAME.npy, with matching local and
   * central headers: check the first local header field by field */
  Tensor *t = tensor_scalar(DT_FLOAT32, 1);
  const char *name = "w";
  ck_assert(tensor_save_npz(path_in_dir("one.npz"), &name, &t, 1));
  size_t n;
  unsigned char *b = read_bytes(path_in_dir("one.npz"), &n);
  ck_assert_int_eq(memcmp(b, "PK\x03\x04", 4), 0);
  ck_assert_int_eq(b[8] | b[9] << 8, 0); /* method: stored */
  ck_assert_int_eq(b[26] | b[27] << 8, 5);
  ck_assert_int_eq(memcmp(b + 30, "w.npy", 5), 0);
  ck_assert_int_eq(memcmp(b + 35, "\x93NUMPY", 6), 0);
  ck_assert_int_eq(memcmp(b + n - 22, "PK\x05\x06", 4), 0);
  free(b);
  tensor_release(t);
}
END_TEST

START_TEST(npz_errors) {
  char **names;
  Tensor **ts;
  const char *path = path_in_dir("bad.npz");
  write_bytes(path, NPZ_DEFLATED, sizeof NPZ_DEFLATED);
  ck_assert_int_eq(tensor_load_npz(path, &names, &ts), -1);
  expect_load_error("compressed .npz members are not supported");
  expect_load_error("member 'a.npy'");
  write_text(path, "hello");
  ck_assert_int_eq(tensor_load_npz(path, &names, &ts), -1);
  expect_load_error("not an .npz file");
  /* a flipped data byte breaks the CRC */
  unsigned char b[sizeof NPZ_NUMPY];
  memcpy(b, NPZ_NUMPY, sizeof b);
  b[100] ^= 0x40; /* inside member a.npy, which starts at byte 55 */
  write_bytes(path, b, sizeof b);
  ck_assert_int_eq(tensor_load_npz(path, &names, &ts), -1);
  expect_load_error("CRC-32 mismatch");
  /* duplicate names on writing */
  Tensor *t = tensor_scalar(DT_FLOAT32, 1);
  Tensor *two[2] = {t, t};
  const char *dup[2] = {"x", "x"};
  ck_assert(!tensor_save_npz(path_in_dir("dup.npz"), dup, two, 2));
  expect_load_error("appears twice");
  tensor_release(t);
}
END_TEST

START_TEST(npz_survives_every_truncation_and_corruption) {
  const char *path = path_in_dir("c.npz");
  char **names;
  Tensor **ts;
  for (size_t n = 0; n < sizeof NPZ_NUMPY; n++) {
    write_bytes(path, NPZ_NUMPY, n);
    ck_assert_int_eq(tensor_load_npz(path, &names, &ts), -1);
  }
  /* each single-byte change either still loads (a harmless byte) or fails
   * cleanly; under the sanitizers this also proves no out-of-bounds reads */
  unsigned char b[sizeof NPZ_NUMPY];
  for (size_t i = 0; i < sizeof b; i++)
    for (int delta = 1; delta < 256; delta += 127) {
      memcpy(b, NPZ_NUMPY, sizeof b);
      b[i] = (unsigned char)(b[i] + delta);
      write_bytes(path, b, sizeof b);
      int n = tensor_load_npz(path, &names, &ts);
      if (n >= 0) free_members(names, ts, n);
    }
}
END_TEST

START_TEST(file_kind_sniffs_magic_bytes) {
  const char *path = path_in_dir("k.bin");
  write_bytes(path, NPY_F4_NEW, sizeof NPY_F4_NEW);
  ck_assert_int_eq(tensor_file_kind(path), TENSOR_FILE_NPY);
  write_bytes(path, NPZ_NUMPY, sizeof NPZ_NUMPY);
  ck_assert_int_eq(tensor_file_kind(path), TENSOR_FILE_NPZ);
  ck_assert(tensor_save_npz(path, NULL, NULL, 0));
  ck_assert_int_eq(tensor_file_kind(path), TENSOR_FILE_NPZ);
  write_text(path, "1,2\n");
  ck_assert_int_eq(tensor_file_kind(path), TENSOR_FILE_OTHER);
  write_text(path, "");
  ck_assert_int_eq(tensor_file_kind(path), TENSOR_FILE_OTHER);
  ck_assert_int_eq(tensor_file_kind(path_in_dir("none")), TENSOR_FILE_ERROR);
  expect_load_error("No such file");
}
END_TEST

/* ---- CSV ---- */

START_TEST(csv_with_and_without_header) {
  const char *path = path_in_dir("d.csv");
  write_text(path, "x,y,label\n1,2.5,0\r\n-3, 4e2 ,1\n\n\"5\",6,7\n");
  Tensor *t = tensor_load_csv(path, true);
  ck_assert_msg(t != NULL, "%s", tensor_error());
  ck_assert_int_eq(t->dtype, DT_FLOAT32);
  ck_assert_int_eq(t->ndim, 2);
  ck_assert_int_eq(t->shape[0], 3);
  ck_assert_int_eq(t->shape[1], 3);
  const double expected[9] = {1, 2.5, 0, -3, 400, 1, 5, 6, 7};
  for (int i = 0; i < 9; i++) ck_assert_double_eq(tensor_get_flat(t, i), expected[i]);
  tensor_release(t);
  write_text(path, "\xEF\xBB\xBF" "1,2\n3,4");
  t = tensor_load_csv(path, false);
  ck_assert_msg(t != NULL, "%s", tensor_error());
  ck_assert_int_eq(t->shape[0], 2);
  ck_assert_double_eq(tensor_get_flat(t, 3), 4);
  tensor_release(t);
}
END_TEST

START_TEST(csv_empty_inputs) {
  const char *path = path_in_dir("e.csv");
  write_text(path, "a,b,c\n");
  Tensor *t = tensor_load_csv(path, true);
  ck_assert_int_eq(t->shape[0], 0);
  ck_assert_int_eq(t->shape[1], 3);
  tensor_release(t);
  write_text(path, "");
  t = tensor_load_csv(path, false);
  ck_assert_int_eq(t->shape[0], 0);
  ck_assert_int_eq(t->shape[1], 0);
  tensor_release(t);
}
END_TEST

START_TEST(csv_errors_name_line_and_cell) {
  const char *path = path_in_dir("bad.csv");
  write_text(path, "a,b\n1,2\n3,oops\n");
  ck_assert_ptr_null(tensor_load_csv(path, true));
  expect_load_error("bad.csv: line 3, column 2: cannot parse 'oops' as a number");
  write_text(path, "1,2\n3\n");
  ck_assert_ptr_null(tensor_load_csv(path, false));
  expect_load_error("line 2: expected 2 values, found 1");
  write_text(path, "1,,2\n");
  ck_assert_ptr_null(tensor_load_csv(path, false));
  expect_load_error("column 2: cannot parse ''");
  write_text(path, "x,y\n1,2,3\n");
  ck_assert_ptr_null(tensor_load_csv(path, true));
  expect_load_error("line 2: expected 2 values, found 3");
  write_bytes(path, "1,2\0", 4);
  ck_assert_ptr_null(tensor_load_csv(path, false));
  expect_load_error("not a text file");
  ck_assert_ptr_null(tensor_load_csv(path_in_dir("absent.csv"), true));
  expect_load_error("absent.csv");
}
END_TEST

int main(void) {
  Suite *s = suite_create("io");
  TCase *tc = tcase_create("io");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, npy_round_trip_every_dtype_and_shape);
  tcase_add_test(tc, npy_int64_extremes_and_float_specials);
  tcase_add_test(tc, npy_writes_what_numpy_writes);
  tcase_add_test(tc, npy_header_layout);
  tcase_add_test(tc, npy_saves_strided_views_in_row_major_order);
  tcase_add_test(tc, npy_reads_numpy_files);
  tcase_add_test(tc, npy_reads_fortran_order);
  tcase_add_test(tc, npy_reads_big_endian_and_v2_and_int32);
  tcase_add_test(tc, npy_rejects_every_truncation);
  tcase_add_test(tc, npy_rejects_bad_magic_version_and_header_length);
  tcase_add_test(tc, npy_rejects_malformed_dicts);
  tcase_add_test(tc, npy_rejects_uint64_beyond_int64);
  tcase_add_test(tc, missing_files_and_bad_paths);
  tcase_add_test(tc, writer_replaces_atomically_and_keeps_mode);
  tcase_add_test(tc, npz_reads_numpy_savez);
  tcase_add_test(tc, npz_round_trip);
  tcase_add_test(tc, npz_member_layout_is_numpy_readable);
  tcase_add_test(tc, npz_errors);
  tcase_add_test(tc, npz_survives_every_truncation_and_corruption);
  tcase_add_test(tc, file_kind_sniffs_magic_bytes);
  tcase_add_test(tc, csv_with_and_without_header);
  tcase_add_test(tc, csv_empty_inputs);
  tcase_add_test(tc, csv_errors_name_line_and_cell);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
