/* The predefined datatypes of the MPI standard (C, Fortran and C++ names), each under its
 * #ifdef: one this mpi.h lacks is left out, and a call with it merely passes through.
 * Included by datatype.c inside an array initializer; nothing else. */
#ifdef MPI_CHAR
    MPI_CHAR,
#endif
#ifdef MPI_SHORT
    MPI_SHORT,
#endif
#ifdef MPI_INT
    MPI_INT,
#endif
#ifdef MPI_LONG
    MPI_LONG,
#endif
#ifdef MPI_LONG_LONG_INT
    MPI_LONG_LONG_INT,
#endif
#ifdef MPI_LONG_LONG
    MPI_LONG_LONG,
#endif
#ifdef MPI_SIGNED_CHAR
    MPI_SIGNED_CHAR,
#endif
#ifdef MPI_UNSIGNED_CHAR
    MPI_UNSIGNED_CHAR,
#endif
#ifdef MPI_UNSIGNED_SHORT
    MPI_UNSIGNED_SHORT,
#endif
#ifdef MPI_UNSIGNED
    MPI_UNSIGNED,
#endif
#ifdef MPI_UNSIGNED_LONG
    MPI_UNSIGNED_LONG,
#endif
#ifdef MPI_UNSIGNED_LONG_LONG
    MPI_UNSIGNED_LONG_LONG,
#endif
#ifdef MPI_FLOAT
    MPI_FLOAT,
#endif
#ifdef MPI_DOUBLE
    MPI_DOUBLE,
#endif
#ifdef MPI_LONG_DOUBLE
    MPI_LONG_DOUBLE,
#endif
#ifdef MPI_WCHAR
    MPI_WCHAR,
#endif
#ifdef MPI_C_BOOL
    MPI_C_BOOL,
#endif
#ifdef MPI_INT8_T
    MPI_INT8_T,
#endif
#ifdef MPI_INT16_T
    MPI_INT16_T,
#endif
#ifdef MPI_INT32_T
    MPI_INT32_T,
#endif
#ifdef MPI_INT64_T
    MPI_INT64_T,
#endif
#ifdef MPI_UINT8_T
    MPI_UINT8_T,
#endif
#ifdef MPI_UINT16_T
    MPI_UINT16_T,
#endif
#ifdef MPI_UINT32_T
    MPI_UINT32_T,
#endif
#ifdef MPI_UINT64_T
    MPI_UINT64_T,
#endif
#ifdef MPI_C_COMPLEX
    MPI_C_COMPLEX,
#endif
#ifdef MPI_C_FLOAT_COMPLEX
    MPI_C_FLOAT_COMPLEX,
#endif
#ifdef MPI_C_DOUBLE_COMPLEX
    MPI_C_DOUBLE_COMPLEX,
#endif
#ifdef MPI_C_LONG_DOUBLE_COMPLEX
    MPI_C_LONG_DOUBLE_COMPLEX,
#endif
#ifdef MPI_BYTE
    MPI_BYTE,
#endif
#ifdef MPI_PACKED
    MPI_PACKED,
#endif
#ifdef MPI_AINT
    MPI_AINT,
#endif
#ifdef MPI_OFFSET
    MPI_OFFSET,
#endif
#ifdef MPI_COUNT
    MPI_COUNT,
#endif
#ifdef MPI_FLOAT_INT
    MPI_FLOAT_INT,
#endif
#ifdef MPI_DOUBLE_INT
    MPI_DOUBLE_INT,
#endif
#ifdef MPI_LONG_INT
    MPI_LONG_INT,
#endif
#ifdef MPI_2INT
    MPI_2INT,
#endif
#ifdef MPI_SHORT_INT
    MPI_SHORT_INT,
#endif
#ifdef MPI_LONG_DOUBLE_INT
    MPI_LONG_DOUBLE_INT,
#endif
#ifdef MPI_INTEGER
    MPI_INTEGER,
#endif
#ifdef MPI_REAL
    MPI_REAL,
#endif
#ifdef MPI_DOUBLE_PRECISION
    MPI_DOUBLE_PRECISION,
#endif
#ifdef MPI_COMPLEX
    MPI_COMPLEX,
#endif
#ifdef MPI_LOGICAL
    MPI_LOGICAL,
#endif
#ifdef MPI_CHARACTER
    MPI_CHARACTER,
#endif
#ifdef MPI_DOUBLE_COMPLEX
    MPI_DOUBLE_COMPLEX,
#endif
#ifdef MPI_2REAL
    MPI_2REAL,
#endif
#ifdef MPI_2DOUBLE_PRECISION
    MPI_2DOUBLE_PRECISION,
#endif
#ifdef MPI_2INTEGER
    MPI_2INTEGER,
#endif
#ifdef MPI_INTEGER1
    MPI_INTEGER1,
#endif
#ifdef MPI_INTEGER2
    MPI_INTEGER2,
#endif
#ifdef MPI_INTEGER4
    MPI_INTEGER4,
#endif
#ifdef MPI_INTEGER8
    MPI_INTEGER8,
#endif
#ifdef MPI_INTEGER16
    MPI_INTEGER16,
#endif
#ifdef MPI_REAL2
    MPI_REAL2,
#endif
#ifdef MPI_REAL4
    MPI_REAL4,
#endif
#ifdef MPI_REAL8
    MPI_REAL8,
#endif
#ifdef MPI_REAL16
    MPI_REAL16,
#endif
#ifdef MPI_COMPLEX8
    MPI_COMPLEX8,
#endif
#ifdef MPI_COMPLEX16
    MPI_COMPLEX16,
#endif
#ifdef MPI_COMPLEX32
    MPI_COMPLEX32,
#endif
#ifdef MPI_CXX_BOOL
    MPI_CXX_BOOL,
#endif
#ifdef MPI_CXX_FLOAT_COMPLEX
    MPI_CXX_FLOAT_COMPLEX,
#endif
#ifdef MPI_CXX_DOUBLE_COMPLEX
    MPI_CXX_DOUBLE_COMPLEX,
#endif
#ifdef MPI_CXX_LONG_DOUBLE_COMPLEX
    MPI_CXX_LONG_DOUBLE_COMPLEX,
#endif
