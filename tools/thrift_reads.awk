# Debian's thrift-compiler 0.17 writes readers whose list and map loops
# leak what they allocated for the element being read when its read
# fails, as it does on a truncated or malformed message (a peer's bytes
# choose that: found by fuzz/fuzz_hs2_decode.c):
#  - a number of a list is read into memory of its own (g_new), freed only
#    once appended: here it is read into a local array instead (appending
#    copies it);
#  - a map entry's key and value are the table's only once inserted: a
#    failure before frees the key (a string) and the value when it is a
#    string or a number (a struct value the reader drops itself).
# A field given twice drops its first value with g_free, which for a
# binary (a GByteArray) frees the record and leaks the bytes: the g_free
# becomes g_byte_array_unref there.
# The Makefile passes the generated *_types.c through this script.
#   awk -f tools/thrift_reads.awk GENERATED.c > FIXED.c

function indent_of(line) {
    match(line, /^ */)
    return substr(line, 1, RLENGTH)
}

# "gint32* _elem25 = g_new (gint32, 1);": a list's number
NF == 6 && $2 ~ /^_elem[0-9]+$/ && $4 == "g_new" && $6 == "1);" {
    type = $1
    sub(/\*$/, "", type)
    local_elem["(" $2 ");"] = 1
    print indent_of($0) type " " $2 "[1];"
    next
}
# ... and its g_free once appended
$1 == "g_free" && NF == 2 && ($2 in local_elem) {
    next
}
# a reader's loop over a map's entries (each entry's variables follow)
/iterate through each of the map's fields/ {
    in_map = 1
}
# the lines from a field's g_free to its read held, to see which read
held != "" && /thrift_protocol_read_/ {
    if (/thrift_protocol_read_binary/)
        sub(/g_free\(/, "g_byte_array_unref(", held)
    printf "%s", held
    held = ""
}
held != "" {
    held = held $0 "\n"
    next
}
/^ *g_free\(this_object->[A-Za-z0-9_]+\);$/ {
    held = $0 "\n"
    next
}
# "gchar * key5 = NULL;", "gchar * val45 = NULL;": a map's string
in_map && NF == 5 && $1 == "gchar" && $2 == "*" && $3 ~ /^(key|val)[0-9]+$/ && $5 == "NULL;" {
    owned = owned " " $3
}
# "gint32* val6 = g_new (gint32, 1);": a map's number
in_map && NF == 6 && $2 ~ /^val[0-9]+$/ && $4 == "g_new" {
    owned = owned " " $2
}
# the entry is the table's from here
/g_hash_table_insert/ {
    owned = ""
    in_map = 0
}
owned != "" && $1 == "return" && $2 == "-1;" && NF == 2 {
    n = split(owned, names, " ")
    line = indent_of($0) "{"
    for (i = 1; i <= n; i++)
        line = line " g_free (" names[i] ");"
    print line " return -1; }"
    next
}
{ print }
END { printf "%s", held }
