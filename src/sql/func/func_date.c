#include "sql/func/func_int.h"
const SqlFuncDef sql_funcs_date[] = {{NULL, 0, 0, NULL, NULL, NULL}};
