/* bench_check.c - the MPI library's own collective as the reference, the correctness check of one cell,
 * and the matrix of every algorithm against it. */
#include "bench_int.h"

int pb_library_call(const cell_t *c, call_t *k, MPI_Comm comm)
{
    int rc = PACT_OK, n = (int)c->count, rank;
    MPI_Datatype t = c->dt->type;
    void *sb = k->inplace ? MPI_IN_PLACE : k->send;
    MPI_Comm_rank(comm, &rank);
    switch (c->coll) {
    case PACT_COLL_ALLREDUCE:
        PACT_MPI_CHECK(MPI_Allreduce(sb, k->recv, n, t, c->op->op, comm));
        break;
    case PACT_COLL_REDUCE:
        PACT_MPI_CHECK(MPI_Reduce(k->inplace && rank == c->root ? MPI_IN_PLACE : k->send, k->recv, n, t,
                                  c->op->op, c->root, comm));
        break;
    case PACT_COLL_BCAST:
        PACT_MPI_CHECK(MPI_Bcast(k->recv, n, t, c->root, comm));
        break;
    case PACT_COLL_ALLTOALL:
        PACT_MPI_CHECK(MPI_Alltoall(sb, n, t, k->recv, n, t, comm));
        break;
    case PACT_COLL_ALLGATHER:
        PACT_MPI_CHECK(MPI_Allgather(sb, n, t, k->recv, n, t, comm));
        break;
    case PACT_COLL_BARRIER:
        PACT_MPI_CHECK(MPI_Barrier(comm));
        break;
    case PACT_COLL_REDUCE_SCATTER: { /* recvcounts: the traits' split of the vector */
        int size;
        MPI_Comm_size(comm, &size);
        int *counts = malloc(sizeof(int) * (size_t)size);
        if (!counts) {
            rc = PACT_ERR_NOMEM;
            goto out;
        }
        for (int i = 0; i < size; i++) {
            size_t ns, nr;
            pact_coll_buf_counts(c->coll, i, size, 0, c->count, &ns, &nr);
            counts[i] = (int)nr;
        }
        int err = MPI_Reduce_scatter(sb, k->recv, counts, t, c->op->op, comm);
        free(counts);
        PACT_MPI_CHECK(err);
        break;
    }
    default:
        rc = PACT_ERR_ARG;
    }
out:
    return rc;
}

/* Puts the input seeded by `seed` (this rank's, for the checked run) where the call reads it: SEND, or
 * RECV (in place, bcast's root).  Bcast's non-roots start from a receive buffer of zeros. */
void pb_stage_input(const bench_t *b, const cell_t *c, void *send, void *recv, int inplace, int seed)
{
    size_t ns, nr, es = c->dt->size;
    pact_coll_buf_counts(c->coll, b->rank, b->size, c->root, c->count, &ns, &nr);
    memset(recv, 0, nr * es);
    if (pact_coll_traits_of(c->coll)->send == PACT_SHAPE_NONE) { /* bcast: the root's RECV is the input */
        if (b->rank == c->root)
            pb_fill(recv, c->dt, seed, nr);
    } else if (!inplace) {
        pb_fill(send, c->dt, seed, ns);
    } else {
        pb_fill((char *)recv + pact_coll_inplace_offset(c->coll, b->rank, b->size, c->count) * es, c->dt, seed, ns);
    }
}

/* A clock all ranks share: SimGrid's in simulation; on a real machine CLOCK_MONOTONIC, one clock for the
 * processes of one node (the barrier check below is exact there, and meaningless across nodes). */
static double shared_clock(void)
{
#ifdef PACT_SMPI
    return MPI_Wtime();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
#endif
}

static void sleep_for(double sec)
{
#ifdef PACT_SMPI
    sg_actor_sleep_for(sec);
#else
    struct timespec ts = {(time_t)sec, (long)((sec - (double)(time_t)sec) * 1e9)};
    nanosleep(&ts, NULL);
#endif
}

/* What a barrier must do: no rank leaves before the last one has arrived.  Ranks 0, P/2 and P-1 in turn
 * arrive late (1 ms simulated, 2 ms real) while the others call at once; *bad counts the ranks that left
 * before the late one arrived, summed over the three runs. */
static int barrier_check(const bench_t *b, const cell_t *c, call_t *k, size_t *bad)
{
    int rc = PACT_OK;
    const int late[3] = {b->size - 1, 0, b->size / 2};
    unsigned long mine = 0, all = 0;
#ifdef PACT_SMPI
    const double delay = 1e-3;
#else
    const double delay = 2e-3;
#endif
    for (int i = 0; i < 3; i++) {
        if ((i == 1 && late[1] == late[0]) || (i == 2 && (late[2] == late[0] || late[2] == late[1])))
            continue;
        double arrived = 0;
        PACT_MPI_CHECK(MPI_Barrier(b->comm));
        if (b->rank == late[i]) {
            sleep_for(delay);
            arrived = shared_clock();
        }
        if ((rc = pb_run_call(c, k, b->comm)) != PACT_OK)
            goto out;
        double left = shared_clock();
        PACT_MPI_CHECK(MPI_Bcast(&arrived, 1, MPI_DOUBLE, late[i], b->comm));
        mine += left < arrived;
    }
    PACT_MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG, MPI_SUM, b->comm));
    *bad = all;
out:
    return rc;
}

/* Runs the cell once on seeded data and compares with the library's collective (for the non-commutative
 * "compose", with the rank-order fold computed here).  *bad: elements wrong, summed over ranks.  A
 * collective without data (barrier) has barrier_check() instead. */
int pb_check_call(const bench_t *b, const cell_t *c, call_t *k, size_t *bad)
{
    if (pact_coll_dataless(c->coll))
        return barrier_check(b, c, k, bad);
    int rc = PACT_OK;
    size_t ns, nr, es = c->dt->size;
    pact_coll_buf_counts(c->coll, b->rank, b->size, c->root, c->count, &ns, &nr);
    void *want = calloc(nr + 1, es), *input = calloc(ns + 1, es);
    unsigned long mine = 0, all = 0;
    if (!want || !input) {
        rc = PACT_ERR_NOMEM;
        goto out;
    }
    if (c->op->commutative || !pact_coll_traits_of(c->coll)->reduces) {
        call_t ref = {.send = input, .recv = want, .inplace = 0};
        pb_stage_input(b, c, input, want, 0, b->rank);
        if ((rc = pb_library_call(c, &ref, b->comm)) != PACT_OK)
            goto out;
    } else if (nr > 0) { /* a result of one block: this rank's block of the vector */
        size_t first = 0;
        for (int r = 0; pact_coll_traits_of(c->coll)->recv == PACT_SHAPE_MY_BLOCK && r < b->rank; r++) {
            size_t s_, n_;
            pact_coll_buf_counts(c->coll, r, b->size, c->root, c->count, &s_, &n_);
            first += n_;
        }
        pb_expected_fold(c, b->size, want, first, nr);
    }
    if (b->check_twice) { /* a plan's second run must not see its first run's data */
        pb_stage_input(b, c, k->send, k->recv, k->inplace, (b->rank + 1) % b->size);
        if ((rc = pb_run_call(c, k, b->comm)) != PACT_OK)
            goto out;
    }
    pb_stage_input(b, c, k->send, k->recv, k->inplace, b->rank);
    if ((rc = pb_run_call(c, k, b->comm)) != PACT_OK)
        goto out;
    mine = (unsigned long)pb_compare(k->recv, want, c->dt, nr, b->size);
    PACT_MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG, MPI_SUM, b->comm));
    *bad = all;
out:
    free(want);
    free(input);
    return rc;
}

/* Expands a comma list of counts; "P-1", "P+1", "P" stand for the communicator size. */
static int parse_counts(const char *list, int P, size_t *out, int max)
{
    int n = 0;
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save)) {
        if (t[0] == 'P') {
            long d = t[1] ? strtol(t + 1, NULL, 10) : 0;
            if ((long)P + d < 0)
                continue;
            out[n++] = (size_t)((long)P + d);
        } else if (!pb_parse_size(t, &out[n++])) {
            return -1;
        }
    }
    return n;
}

static int in_list(const char *list, const char *name)
{
    if (!list || strcmp(list, "all") == 0)
        return 1;
    size_t l = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += l)
        if ((p == list || p[-1] == ',') && (p[l] == ',' || p[l] == 0))
            return 1;
    return 0;
}


/* Roots to try: a comma list of numbers and P-1, P/2; duplicates dropped. */
static int parse_roots(const char *list, int P, int *out, int max)
{
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save)) {
        int r = !strcmp(t, "P-1") ? P - 1 : !strcmp(t, "P/2") ? P / 2 : atoi(t);
        if (r < 0 || r >= P)
            continue;
        int dup = 0;
        for (int i = 0; i < n; i++)
            dup |= out[i] == r;
        if (!dup)
            out[n++] = r;
    }
    return n;
}

/* One cell of the matrix: PACT_OK, or PACT_ERR_RESTRICTED (counted as skipped), or an error. */
static int matrix_cell(bench_t *b, cell_t *c, int inplace, long *passed, long *failed, long *skipped)
{
    call_t k;
    const char *why;
    int rc = pb_call_setup(b, c, &k, inplace, &why);
    if (rc == PACT_ERR_RESTRICTED) {
        (*skipped)++;
        rc = PACT_OK;
    } else if (rc != PACT_OK) {
        fprintf(stderr, "pact-bench: %s %s P=%d count=%zu: %s\n", pact_coll_name(c->coll), c->alg, b->size,
                c->count, why ? why : "set-up failed");
    } else {
        size_t bad = 0;
        if ((rc = pb_check_call(b, c, &k, &bad)) == PACT_OK) {
            if (bad) {
                (*failed)++;
                if (b->rank == 0 && pact_coll_dataless(c->coll))
                    printf("WRONG %s %s P=%d: %zu ranks left before the late rank arrived\n",
                           pact_coll_name(c->coll), c->alg, b->size, bad);
                else if (b->rank == 0)
                    printf("WRONG %s %s P=%d count=%zu %s %s root=%d%s: %zu elements differ\n",
                           pact_coll_name(c->coll), c->alg, b->size, c->count, c->dt->name, c->op->name,
                           c->root, inplace ? " in-place" : "", bad);
            } else {
                (*passed)++;
            }
        }
    }
    pb_call_free(b, &k);
    return rc;
}

/* Every algorithm of the chosen collectives x counts x dtypes x ops x roots x {out of place, in place}, each
 * compared with the library's collective.  One line per failure and a total; PACT_ERR_CHECK if any failed. */
int pb_run_matrix(bench_t *b, const matrix_opts *m)
{
    int rc = PACT_OK, roots[8], nroots = parse_roots(m->roots, b->size, roots, 8);
    size_t cnt[32];
    long passed = 0, failed = 0, skipped = 0, big = 0;
    int nc = parse_counts(m->counts, b->size, cnt, 32);
    if (nc < 0) {
        if (b->rank == 0)
            fprintf(stderr, "pact-bench: --counts: malformed list '%s'\n", m->counts);
        return PACT_ERR_ARG;
    }
    for (size_t ai = 0; ai < pact_alg_count(); ai++) {
        const pact_alg *a = pact_alg_at(ai);
        pact_coll coll = a->coll;
        if (!in_list(m->colls, pact_coll_name(coll)) || !in_list(m->algs, a->name))
            continue;
        const pact_coll_traits *ct = pact_coll_traits_of(coll);
        int reduces = ct->reduces;
        /* a collective without data (barrier): one cell, count 0, the first datatype, out of place */
        const int dataless = pact_coll_dataless(coll), ncounts = dataless ? 1 : nc;
        int first_dt = 1;
        for (int ci = 0; ci < ncounts; ci++)
            for (size_t di = 0; di < pb_ndtypes; di++) {
                if (!in_list(m->dtypes, pb_dtypes[di].name) || (dataless && !first_dt))
                    continue;
                first_dt = 0;
                size_t ns, nr;
                pact_coll_buf_counts(coll, 0, b->size, 0, cnt[ci], &ns, &nr);
                size_t nbuf = (ns > nr ? ns : nr) * pb_dtypes[di].size;
                for (size_t oi = 0; oi < pb_nops; oi++) {
                    /* data-moving collectives need one pass per dtype, whatever the op */
                    if (reduces ? !in_list(m->ops, pb_ops[oi].name) || !pb_dt_op_ok(&pb_dtypes[di], &pb_ops[oi])
                                : oi != (pb_dtypes[di].kind == DT_PAIR ? 3u : 0u))
                        continue;
                    /* the rank-order fold of "compose" is computed here, P x count per rank: keep it small */
                    if ((double)nbuf > m->max_bytes ||
                        (reduces && pb_dtypes[di].kind == DT_PAIR && cnt[ci] > 4096)) {
                        big++;
                        continue;
                    }
                    for (int ri = 0; ri < (pact_coll_rooted(coll) ? nroots : 1); ri++)
                        for (int inplace = 0; inplace < (ct->inplace == PACT_INPLACE_NONE ? 1 : 2); inplace++) {
                            cell_t c = {.coll = coll,
                                        .count = dataless ? 0 : cnt[ci],
                                        .dt = &pb_dtypes[di],
                                        .op = &pb_ops[oi],
                                        .root = pact_coll_rooted(coll) ? roots[ri] : 0};
                            snprintf(c.alg, sizeof(c.alg), "%s", a->name);
                            if ((rc = matrix_cell(b, &c, inplace, &passed, &failed, &skipped)) != PACT_OK)
                                return rc;
                        }
                }
            }
    }
    if (b->rank == 0)
        printf("pact-bench matrix %s P=%d: %ld right, %ld wrong, %ld restricted, %ld over %.0f bytes\n",
               m->colls, b->size, passed, failed, skipped, big, m->max_bytes);
    return failed ? PACT_ERR_CHECK : PACT_OK;
}

