# Debian's thrift-compiler 0.17 writes a finalize function for every
# generated struct that frees the struct's fields but does not chain up to
# its parent class's (ThriftStruct's, GObject's), so the GObject data
# g_object_unref attaches to each object (32 bytes) is never freed: a
# long-running server would leak on every call.  The Makefile passes the
# generated *_types.c through this script, which ends each such function
# with the chain-up it lacks.
#   awk -f tools/thrift_finalize.awk GENERATED.c > FIXED.c
/^[a-z0-9_]+_finalize \(GObject \*object\)$/ {
    name = $1
    sub(/_finalize$/, "", name)
}
name != "" && /^}$/ {
    print "  G_OBJECT_CLASS (g_type_class_peek_parent (g_type_class_peek (" name "_get_type ())))->finalize (object);"
    name = ""
}
{ print }
