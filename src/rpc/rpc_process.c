/*
 * rpc_process.c - a call read and dispatched (rpc_process.h).  libthrift
 * 0.17's thrift_processor_process leaks the method's name and logs a
 * GLib warning when a message is not a call (a client sending a reply),
 * and its answer to an unknown method leaks the name when the call's
 * arguments cannot be skipped or the answer cannot be written.  Here the
 * header is checked before the processor sees it, and the answer to an
 * unknown method is comb's: it owns the name on every path, as the
 * generated processors expect of their parent class.
 */
#include "rpc/rpc_process.h"

#include <thrift/c_glib/thrift_application_exception.h>

/* The arguments of an unknown call skipped and the exception written,
 * as libthrift answers; name freed whatever happens. */
static gboolean answer_unknown(ThriftDispatchProcessor *self, ThriftProtocol *in,
                               ThriftProtocol *out, gchar *name, gint32 seqid,
                               GError **error)
{
    ThriftApplicationException *x;
    gchar *message;
    gboolean ok;
    (void)self;
    ok = thrift_protocol_skip(in, T_STRUCT, error) >= 0 &&
         thrift_protocol_read_message_end(in, error) >= 0 &&
         thrift_transport_read_end(in->transport, error) &&
         thrift_protocol_write_message_begin(out, name, T_EXCEPTION, seqid,
                                             error) >= 0;
    if (!ok) {
        g_free(name);
        return FALSE;
    }
    message = g_strconcat("Invalid method name: '", name, "'", NULL);
    g_free(name);
    x = g_object_new(THRIFT_TYPE_APPLICATION_EXCEPTION, "type",
                     THRIFT_APPLICATION_EXCEPTION_ERROR_UNKNOWN_METHOD,
                     "message", message, NULL);
    g_free(message);
    ok = thrift_struct_write(THRIFT_STRUCT(x), out, error) >= 0 &&
         thrift_protocol_write_message_end(out, error) >= 0 &&
         thrift_transport_write_end(out->transport, error) &&
         thrift_transport_flush(out->transport, error);
    g_object_unref(x);
    return ok;
}

/* The generated processors hand a name they do not know to their parent
 * class's dispatch_call, looked up at each call: comb's answer goes
 * there. */
void rpc_process_register(void)
{
    ThriftDispatchProcessorClass *base =
        g_type_class_ref(THRIFT_TYPE_DISPATCH_PROCESSOR);
    base->dispatch_call = answer_unknown;    /* the class stays referenced */
}

gboolean rpc_process(ThriftProcessor *proc, ThriftProtocol *proto,
                     GError **error)
{
    gchar *name = NULL;
    ThriftMessageType type = T_CALL;
    gint32 seqid = 0;
    if (thrift_protocol_read_message_begin(proto, &name, &type, &seqid,
                                           error) < 0) {
        g_free(name);
        return FALSE;
    }
    if (type != T_CALL && type != T_ONEWAY) {
        g_set_error(error, THRIFT_PROTOCOL_ERROR, THRIFT_PROTOCOL_ERROR_INVALID_DATA,
                    "a message of type %d where a call was expected", (int)type);
        g_free(name);
        return FALSE;
    }
    return THRIFT_DISPATCH_PROCESSOR_GET_CLASS(proc)->dispatch_call(
        THRIFT_DISPATCH_PROCESSOR(proc), proto, proto, name, seqid, error);
}
