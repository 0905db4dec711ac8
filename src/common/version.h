/*
 * version.h - comb's version, recorded in the ORC files it writes
 * (footer softwareVersion) and printed by `comb --version`.
 */
#ifndef COMB_VERSION_H
#define COMB_VERSION_H

#define COMB_VERSION "0.1.0"

#endif
