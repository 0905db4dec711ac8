/*
 * difftest_data.h - the table both sides of the differential expression
 * test work on: one column of every type comb supports, rows of edge
 * values.  Cells are SQL that comb's INSERT and the Hive reference read
 * alike (casts of string literals, so the stored value does not depend on
 * how either side types a literal).
 */
#ifndef COMB_TEST_DIFFTEST_DATA_H
#define COMB_TEST_DIFFTEST_DATA_H

#include "hive_ref.h"

#define DT_N_COLS 11

extern const char *const dt_col_names[DT_N_COLS];
extern const char *const dt_col_sql_types[DT_N_COLS];
extern const HTy dt_col_types[DT_N_COLS];
extern const char *const dt_rows[][DT_N_COLS];
extern const int dt_n_rows;

/* Columns of dt_col_names by meaning (the first one is the row id). */
enum { DT_ID, DT_B, DT_TI, DT_SI, DT_I, DT_BI, DT_F, DT_D, DT_S, DT_V, DT_C };

/* Initialise r with the table and its rows; false (r->why) on failure. */
bool dt_load(HRef *r);

/* Index of the row whose id is `id`, or -1. */
int dt_row_of(const HRef *r, int id);

#endif
