/* bench_data.c - the bench driver's datatypes and operations (a non-commutative "compose" among them),
 * the seeded input of every rank and the comparison of results. */
#include "bench_int.h"

/* "pair" is two unsigned ints (a, b) standing for the map x -> a*x + b; "compose" chains such maps in rank
 * order.  Associative, not commutative, exact in unsigned arithmetic: any reordering of operands shows. */
dtype_desc pb_dtypes[] = {
    {"int", DT_INT, MPI_INT, sizeof(int)},
    {"float", DT_FLOAT, MPI_FLOAT, sizeof(float)},
    {"double", DT_DOUBLE, MPI_DOUBLE, sizeof(double)},
    {"pair", DT_PAIR, MPI_DATATYPE_NULL, 2 * sizeof(unsigned)}, /* index 3: main() builds its type */
    {"char", DT_CHAR, MPI_UINT8_T, 1}, /* the seeds' 2 B..2 KiB studies; unsigned sums wrap in any order */
};

op_desc pb_ops[] = {
    {"sum", MPI_SUM, 1},
    {"max", MPI_MAX, 1},
    {"min", MPI_MIN, 1},
    {"compose", MPI_OP_NULL, 0},
};

void pb_compose_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const unsigned *x = in;
    unsigned *y = inout;
    (void)dt;
    for (int i = 0; i < *len; i++) { /* first x, then y: a2*(a1*v + b1) + b2 */
        unsigned a1 = x[2 * i], b1 = x[2 * i + 1], a2 = y[2 * i], b2 = y[2 * i + 1];
        y[2 * i] = a1 * a2;
        y[2 * i + 1] = b1 * a2 + b2;
    }
}

/* Only pairs compose, and pairs do nothing else. */
int pb_dt_op_ok(const dtype_desc *dt, const op_desc *op)
{
    return (dt->kind == DT_PAIR) == (op->op == pb_ops[3].op);
}


const size_t pb_ndtypes = sizeof(pb_dtypes) / sizeof(pb_dtypes[0]), pb_nops = sizeof(pb_ops) / sizeof(pb_ops[0]);

const dtype_desc *pb_find_dtype(const char *n)
{
    for (size_t i = 0; i < pb_ndtypes; i++)
        if (strcmp(pb_dtypes[i].name, n) == 0)
            return &pb_dtypes[i];
    return NULL;
}

const op_desc *pb_find_op(const char *n)
{
    for (size_t i = 0; i < pb_nops; i++)
        if (strcmp(pb_ops[i].name, n) == 0)
            return &pb_ops[i];
    return NULL;
}

/* ---- data ------------------------------------------------------------------------------------------ */

static long seed_value(int rank, size_t i)
{
    return (long)(((size_t)rank * 37 + i * 11) % 199) - 99;
}

/* Element i of the input of rank `rank`. */
void pb_put(void *buf, size_t i, const dtype_desc *dt, int rank, size_t gi)
{
    long v = seed_value(rank, gi);
    switch (dt->kind) {
    case DT_CHAR:
        ((unsigned char *)buf)[i] = (unsigned char)(v + 99);
        break;
    case DT_INT:
        ((int *)buf)[i] = (int)v;
        break;
    case DT_FLOAT:
        ((float *)buf)[i] = (float)(v / 7.0);
        break;
    case DT_DOUBLE:
        ((double *)buf)[i] = v / 7.0;
        break;
    case DT_PAIR:
        ((unsigned *)buf)[2 * i] = 2u * (unsigned)(v + 99) + 1u;
        ((unsigned *)buf)[2 * i + 1] = (unsigned)rank * 7u + (unsigned)gi;
        break;
    }
}

void pb_fill(void *buf, const dtype_desc *dt, int rank, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pb_put(buf, i, dt, rank, i);
}

/* Number of elements that differ beyond rounding; sums of P values below 100/7 in magnitude. */
size_t pb_compare(const void *got, const void *want, const dtype_desc *dt, size_t n, int P)
{
    size_t bad = 0;
    double tol = dt->kind == DT_FLOAT ? 1e-5 * 15.0 * P : 1e-12 * 15.0 * P;
    for (size_t i = 0; i < n; i++) {
        switch (dt->kind) {
        case DT_CHAR:
            bad += ((const unsigned char *)got)[i] != ((const unsigned char *)want)[i];
            break;
        case DT_INT:
            bad += ((const int *)got)[i] != ((const int *)want)[i];
            break;
        case DT_FLOAT:
            bad += !(fabs((double)((const float *)got)[i] - (double)((const float *)want)[i]) <= tol);
            break;
        case DT_DOUBLE:
            bad += !(fabs(((const double *)got)[i] - ((const double *)want)[i]) <= tol);
            break;
        case DT_PAIR:
            bad += memcmp((const char *)got + i * dt->size, (const char *)want + i * dt->size, dt->size) != 0;
            break;
        }
    }
    return bad;
}

/* What a non-commutative reduction must give: every rank's element folded in rank order, for the n elements
 * from element `first` of the vector on. */
void pb_expected_fold(const cell_t *c, int P, void *want, size_t first, size_t n)
{
    unsigned x[2];
    for (size_t i = 0; i < n; i++) {
        pb_put(want, i, c->dt, 0, first + i);
        for (int r = 1; r < P; r++) {
            int one = 1;
            pb_put(x, 0, c->dt, r, first + i);
            pb_compose_fn((char *)want + i * c->dt->size, x, &one, NULL);
            memcpy((char *)want + i * c->dt->size, x, c->dt->size);
        }
    }
}

