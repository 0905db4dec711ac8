# Deterministic generator of the example's daily increments, and of the
# dimension each day should end with, computed here independently of the
# SQL (the rules of daily_merge.sql applied to one user at a time).
#   awk -v days="2024-03-01 2024-03-02 ..." -v users=N -v seed=S -v out=DIR \
#       -f gen_increments.awk
# writes, for each day D: DIR/inc_D.sql (INSERTs into ods_user_inc) and
# DIR/expected_D.tsv (every row partition D of dim_user_zip must hold,
# tab-separated, NULL for NULL, unsorted).  Each day after the first has
# updates (some only NULL -> value or value -> NULL), unchanged re-sends,
# new users, users sent twice (the later update_time wins), soft deletes,
# deletes of unknown users and users coming back after a delete.
# Park-Miller random numbers: the same sequence under every awk.
function rnd() { state = (state * 16807) % 2147483647; return state / 2147483647 }
function pick(n) { return int(rnd() * n) }
function rand_name(id) { return names[pick(nnames)] "_" id }
function rand_level() { return rnd() < 0.08 ? NUL : 1 + pick(5) }
function rand_city() { return rnd() < 0.15 ? NUL : cities[pick(ncities)] }
function sqlv(v, quoted) { return v == NUL ? "NULL" : quoted ? "'" v "'" : v }
function tsv(v) { return v == NUL ? "NULL" : v }
# one record of day d for user id, its update_time the day's next second
function emit(d, id, nm, lv, ct, del,    t) {
    t = 3600 + nrec[d]++
    recs[d] = recs[d] (nrows[d]++ % 400 ? ",\n" : (nrows[d] > 1 ? ";\n" : "") \
        "INSERT INTO ods_user_inc PARTITION (dt = '" day[d] "') VALUES\n") \
        sprintf("  (%d, %s, %s, %s, '%s %02d:%02d:%02d', %d)", id, sqlv(nm, 1),
                sqlv(lv, 0), sqlv(ct, 1), day[d], int(t / 3600), int(t % 3600 / 60),
                t % 60, del)
}
# sometimes precede the record that counts with an earlier one that loses
function maybe_dup(d, id) {
    if (rnd() < 0.12)
        emit(d, id, rand_name(id), rand_level(), rand_city(), rnd() < 0.3)
}
# the record that counts for user id on day d, and its effect on the state
function final(d, id, nm, lv, ct, del) {
    maybe_dup(d, id)
    emit(d, id, nm, lv, ct, del)
    if (live[id] && (del || nm != name[id] || lv != level[id] || ct != city[id])) {
        hist[nhist++] = id "\t" tsv(name[id]) "\t" tsv(level[id]) "\t" tsv(city[id]) \
            "\t" start[id] "\t" day[d - 1] "\t0"
        live[id] = 0
    }
    if (!del && !live[id]) {
        live[id] = 1; name[id] = nm; level[id] = lv; city[id] = ct; start[id] = day[d]
    }
    known[id] = 1
}
# a changed copy of user id's values: one column or more differ under <=>
function change(d, id,    nm, lv, ct, what) {
    nm = name[id]; lv = level[id]; ct = city[id]
    while (nm == name[id] && lv == level[id] && ct == city[id]) {
        what = pick(4)
        if (what == 0) nm = rand_name(id)
        else if (what == 1) lv = (lv == NUL ? 1 + pick(5) : rnd() < 0.3 ? NUL : 1 + pick(5))
        else if (what == 2) ct = (ct == NUL ? cities[pick(ncities)] : NUL)
        else ct = rand_city()
    }
    final(d, id, nm, lv, ct, 0)
}
BEGIN {
    NUL = "\001"
    state = seed + 0 > 0 ? seed + 0 : 42
    for (i = 0; i < 20; i++) rnd()  # Park-Miller starts small: mix first
    nnames = split("ann bob cy dee eve fay gus hal ivy joe kim lou", names)
    for (i = 0; i < nnames; i++) names[i] = names[i + 1]
    ncities = split("Oslo Rome Lima Pune Kyiv Oulu Graz Cork", cities)
    for (i = 0; i < ncities; i++) cities[i] = cities[i + 1]
    ndays = split(days, day)
    maxid = 0
    for (d = 1; d <= ndays; d++) {
        if (d == 1) {
            for (id = 1; id <= users; id++)
                final(d, id, rand_name(id), rand_level(), rand_city(), rnd() < 0.02)
            maxid = users
        } else {
            for (id = 1; id <= maxid; id++) {
                r = rnd()
                if (live[id]) {
                    if (r < 0.12) change(d, id)
                    else if (r < 0.18) final(d, id, name[id], level[id], city[id], 0)
                    else if (r < 0.21) final(d, id, name[id], level[id], city[id], 1)
                } else if (known[id] && r < 0.3) {
                    final(d, id, rand_name(id), rand_level(), rand_city(), 0)
                }
            }
            for (k = 0; k < users / 10 + 1; k++) {
                id = ++maxid
                final(d, id, rand_name(id), rand_level(), rand_city(), 0)
            }
            # a delete of a user nobody ever sent changes nothing
            emit(d, 1000000 + d, NUL, NUL, NUL, 1)
        }
        f = out "/inc_" day[d] ".sql"
        printf "%s;\n", recs[d] > f
        close(f)
        f = out "/expected_" day[d] ".tsv"
        for (h = 0; h < nhist; h++) print hist[h] > f
        for (id = 1; id <= maxid; id++)
            if (live[id])
                print id "\t" tsv(name[id]) "\t" tsv(level[id]) "\t" tsv(city[id]) \
                    "\t" start[id] "\t9999-12-31\t1" > f
        close(f)
    }
}
