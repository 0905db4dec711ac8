/*
 * hive_ref_cases.h - expressions with Hive 4's known answers: every case
 * of issue 5 plus consequences of the Hive sources hive_ref.c encodes.
 * test_hive_ref.c asserts them on the reference, test_difftest.c runs
 * them through comb.  Rows are ids of difftest_data.c (0: constant).
 */
#ifndef COMB_TEST_HIVE_REF_CASES_H
#define COMB_TEST_HIVE_REF_CASES_H

/* Answers that are not printed values. */
#define HREF_REJECT "<rejected>"       /* Hive refuses to compile it */
#define HREF_EXCLUDE "<not modelled>"  /* the reference does not model it */
#define HREF_UNKNOWN "<unknown>"       /* Hive's answer is not established */
#define HREF_MODE "<mode-dependent>"   /* row mode and vectorized differ */

typedef struct HrefCase {
    const char *sql;
    int row_id;
    const char *want;
    const char *source;   /* issue 5, or the Hive code giving the answer */
} HrefCase;

extern const HrefCase href_cases[];
extern const int href_n_cases;

#endif
