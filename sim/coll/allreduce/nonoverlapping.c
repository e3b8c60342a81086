/*
 * allreduce nonoverlapping
 *
 * Source:   Open MPI ompi_coll_base_allreduce_intra_nonoverlapping (coll_base_allreduce.c in
 *           ompi/mca/coll/base): the communicator's reduce to rank 0, then the communicator's broadcast
 *           from rank 0; the broadcast starts once the reduce has completed on this rank, so no segment of
 *           the result is broadcast while the reduce is still running.  Open MPI takes whatever reduce and
 *           bcast the communicator selected; pact takes them from the parameters "reduce" and "bcast" (Open
 *           MPI coll_tuned ids), each run with its default parameters.  In place, rank 0 reduces in place
 *           and the other ranks pass their receive buffer as the send buffer, as there.
 * Restrict: those of the chosen reduce and bcast (checked here, for the arguments they get).
 * Cost:     T(reduce) + T(bcast); with the defaults (binomial both, unsegmented) about
 *           2*ceil(log2 P)*(alpha + beta*m) + ceil(log2 P)*gamma*m.
 */
#include "pact_coll.h"
#include "cost.h"

/* Builds the part `c` with the algorithm of Open MPI id `id` and its default parameters, rooted at 0. */
static int part(pact_sched *s, const pact_build_args *a, pact_coll c, long id, int inplace)
{
    const pact_alg *alg = pact_alg_find_ompi(c, (int)id);
    if (!alg || !alg->build)
        return PACT_ERR_ARG;
    pact_build_args b = *a;
    b.coll = c;
    b.root = 0;
    b.inplace = inplace;
    b.params = NULL;
    return pact_compose(s, alg, &b, NULL);
}

int pact_allreduce_nonoverlapping_build(pact_sched *s, const pact_build_args *a)
{
    if (a->count == 0)
        return PACT_OK;
    int rc = part(s, a, PACT_COLL_REDUCE, a->params[0], a->inplace && a->rank == 0);
    if (rc != PACT_OK)
        return rc;
    pact_fence(s);
    return part(s, a, PACT_COLL_BCAST, a->params[1], 0);
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    pact_cost r, b;
    const char *s;
    pact_alg_find(PACT_COLL_REDUCE, "binomial")->terms(P, m, &r, &s);
    pact_alg_find(PACT_COLL_BCAST, "binomial")->terms(P, m, &b, &s);
    *src = "SUARA eq. 4: T(reduce binomial) + T(bcast binomial), Open MPI's default pair";
    pact_cost_set(t, r.a + b.a, r.b + b.b, r.c + b.c);
    return 1;
}

const pact_alg pact_alg_allreduce_nonoverlapping = {
    .coll = PACT_COLL_ALLREDUCE,
    .name = "nonoverlapping",
    .build = pact_allreduce_nonoverlapping_build,
    .restrictions = 0,
    .ompi_id = 2,
    .mpich = NULL,
    .smpi = NULL,
    .source = "Open MPI ompi_coll_base_allreduce_intra_nonoverlapping (coll_base_allreduce.c)",
    .cost = "T(reduce) + T(bcast)",
    .terms = terms,
    .params = (const pact_param_desc[]){{"reduce", 5, "Open MPI id of the reduce algorithm to run first (5: binomial)"},
               {"bcast", 6, "Open MPI id of the bcast algorithm to run next (6: binomial)"}, {NULL, 0, NULL}},
};
