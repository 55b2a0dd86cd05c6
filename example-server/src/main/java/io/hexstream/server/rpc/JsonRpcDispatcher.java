package io.hexstream.server.rpc;

import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.metrics.Tally;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JSON-RPC 2.0 dispatch for the requests of one HTTP request: finds each method ({@code -32601} otherwise), replies
 * {@code -32600} to an invalid request, calls the methods in request order, makes the reply to each request that is not
 * a notification, and turns a failing call into its error ({@code -32603} for a bug). Knows no method: a result writes
 * itself ({@link RpcResult}).
 *
 * <p>Threads: called on the channel's event loop. A method that does not block runs there, at once; one that
 * {@link RpcMethod#blocking() blocks} is handed to the ingest executor (a
 * {@link io.hexstream.server.exec.BoundedExecutor}: a few threads and a bounded queue; when it is full the call gets
 * {@code -32000} "server busy" and is not run at all). The replies are handed back on the event loop, all at once, in
 * request order. A large request may be dispatched from another thread than its event loop (the replies still come back
 * on the loop). A blocking call still queued when its event loop has stopped (the server stopping) is not made, its
 * reply could not be sent; and the replies that can no longer be handed back to a stopped loop are released by
 * whichever call ends last.
 *
 * <p>Response cap: the replies to one HTTP request take at most {@code maxResponseBytes}, counted exactly
 * ({@link RpcReply#length}: each reply is built when its method returns) in request order, before any byte is written.
 * A call whose reply would pass the cap gets {@code -32000} instead, its reply released unsent (a blocking call, whose
 * reply is reserved {@link #BLOCKING_REPLY_RESERVE} bytes besides its id, is not even run). Error replies are always
 * sent: a response may pass the cap by the errors of the calls after it.
 */
public final class JsonRpcDispatcher {
    /** Bytes a blocking method's reply may take besides its id: what the cap reserves before running it. */
    public static final int BLOCKING_REPLY_RESERVE = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcDispatcher.class);

    private final Map<String, RpcMethod> methods;
    private final BiFunction<byte[], RpcResult, RpcReply> replies;
    private final Executor executor;
    private final long maxResponseBytes;
    private final ServerMetrics metrics;

    /**
     * @param methods the methods served, by {@link RpcMethod#name()}
     * @param ingest where blocking methods run: a {@link io.hexstream.server.exec.BoundedExecutor} (its owner shuts it
     *     down)
     * @param maxResponseBytes the cap on the replies to one HTTP request ({@code --max-response-bytes})
     * @param metrics told each reply's method and outcome, and each refusal by the cap or a full ingest queue
     */
    public JsonRpcDispatcher(List<RpcMethod> methods, Executor ingest, long maxResponseBytes, ServerMetrics metrics) {
        this(methods, RpcReply::success, ingest, maxResponseBytes, metrics);
    }

    /**
     * A dispatcher whose successful calls' replies are made by {@code replies} (a {@link ResponseRenderer#reply}, from
     * a request's id and its method's result), on the thread that called the method; the others as
     * {@link #JsonRpcDispatcher(List, Executor, long, ServerMetrics)}.
     */
    public JsonRpcDispatcher(
            List<RpcMethod> methods,
            BiFunction<byte[], RpcResult, RpcReply> replies,
            Executor ingest,
            long maxResponseBytes,
            ServerMetrics metrics) {
        if (maxResponseBytes < 1) {
            throw new IllegalArgumentException("max response bytes " + maxResponseBytes + " < 1");
        }
        Map<String, RpcMethod> byName = new HashMap<>();
        for (RpcMethod method : methods) {
            if (byName.put(method.name(), method) != null) {
                throw new IllegalArgumentException("two methods named " + method.name());
            }
        }
        this.methods = Map.copyOf(byName);
        this.replies = replies;
        this.maxResponseBytes = maxResponseBytes;
        this.executor = ingest;
        this.metrics = metrics;
    }

    /** The {@link RpcMethod#elements()} of the method named {@code method}, {@code null} if none or not served. */
    ElementReader elements(String method) {
        RpcMethod served = methods.get(method);
        return served == null ? null : served.elements();
    }

    /**
     * Calls the methods of {@code requests}; calls {@code done} with the replies on {@code loop}, once every call has
     * returned (at once, if called on {@code loop} and no call blocks). Called on {@code loop}, or on a thread that may
     * block.
     */
    public void dispatch(List<RpcRequest> requests, boolean batch, EventExecutor loop, Consumer<Replies> done) {
        PendingReplies pending = new PendingReplies(requests.size(), batch, done, metrics);
        long total = batch ? 2 : 0; // [ and ]
        boolean first = true;
        for (int i = 0; i < requests.size(); i++) {
            RpcRequest request = requests.get(i);
            RpcMethod method = request.invalid() == null ? methods.get(request.method()) : null;
            pending.label(
                    i,
                    request.invalid() != null
                            ? ServerMetrics.INVALID_REQUEST
                            : method == null ? ServerMetrics.UNKNOWN_METHOD : method.name());
            boolean replied = !request.isNotification();
            long separator = batch && !first && replied ? 1 : 0;
            first &= !replied;
            RpcReply reply;
            if (method != null && method.blocking()) {
                long reserve = (replied ? request.id().length : 0) + BLOCKING_REPLY_RESERVE;
                if (total + separator + reserve > maxResponseBytes) {
                    reply = tooLarge(request);
                } else if (submit(request, method, pending, i, loop)) {
                    total += replied ? separator + reserve : 0;
                    continue;
                } else {
                    reply = failure(request, RpcError.SERVER_ERROR, "server busy");
                }
            } else {
                reply = method == null ? unserved(request) : call(request, method);
                if (reply != null && reply.result() != null && total + separator + reply.length() > maxResponseBytes) {
                    reply.release();
                    reply = tooLarge(request);
                }
            }
            total += reply != null ? separator + reply.length() : 0;
            pending.set(i, reply);
        }
        if (loop.inEventLoop()) {
            pending.dispatched();
            return;
        }
        try {
            loop.execute(pending::dispatched);
        } catch (RejectedExecutionException e) {
            pending.abandoned(PendingReplies.DISPATCH, null);
            LOG.debug("a request dispatched after the event loop stopped");
        }
    }

    /** Runs {@code method} on the executor, its reply handed back on {@code loop}; false if the queue is full. */
    private boolean submit(
            RpcRequest request, RpcMethod method, PendingReplies pending, int index, EventExecutor loop) {
        pending.outstanding.incrementAndGet();
        try {
            executor.execute(() -> {
                RpcReply reply = loop.isShuttingDown() ? null : call(request, method);
                try {
                    loop.execute(() -> pending.arrived(index, reply));
                } catch (RejectedExecutionException e) {
                    pending.abandoned(index, reply);
                    LOG.debug("{} returned after the event loop stopped", method.name());
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            pending.outstanding.decrementAndGet();
            metrics.refused(ServerMetrics.Limit.SERVER_BUSY);
            return false;
        }
    }

    /** The error reply to a request that names no method served, or is not valid; {@code null} for a notification. */
    private static RpcReply unserved(RpcRequest request) {
        return request.invalid() != null
                ? failure(request, RpcError.INVALID_REQUEST, request.invalid())
                : failure(request, RpcError.METHOD_NOT_FOUND, request.method());
    }

    /**
     * Calls {@code method}: its reply, {@code null} for a notification (whose method runs all the same). Anything else
     * it throws, an {@link Error} included (an {@link OutOfMemoryError} on the ingest thread, a
     * {@link StackOverflowError}), is logged here once and replied {@code -32603}: every call gets its reply, so the
     * replies behind it on the connection are not held back for good.
     */
    private RpcReply call(RpcRequest request, RpcMethod method) {
        try {
            RpcResult result = method.call(request.params());
            return request.isNotification() ? null : replies.apply(request.id(), result);
        } catch (RpcException e) {
            return failure(request, e.error(), e.getMessage());
        } catch (Throwable e) {
            LOG.error("{} failed", method.name(), e);
            return failure(request, RpcError.INTERNAL_ERROR, null);
        }
    }

    /** The error reply to {@code request}; {@code null} for a notification, which gets none. */
    private static RpcReply failure(RpcRequest request, RpcError error, String detail) {
        return request.isNotification() ? null : RpcReply.failure(request.id(), error, detail);
    }

    private RpcReply tooLarge(RpcRequest request) {
        metrics.refused(ServerMetrics.Limit.MAX_RESPONSE_BYTES);
        return failure(
                request,
                RpcError.SERVER_ERROR,
                "response too large: the replies to this" + " HTTP request would pass " + maxResponseBytes
                        + " bytes (--max-response-bytes)");
    }

    /**
     * The replies to one HTTP request as they come in: set by the dispatching thread, then by blocking calls back on
     * the event loop; finished on the event loop. The dispatch and each blocking call are outstanding until they end;
     * the one that ends last finishes the replies, or releases them if it could not reach the loop.
     */
    private static final class PendingReplies {
        /** The index {@link #abandoned} is given for the dispatch itself, which sets no reply. */
        static final int DISPATCH = -1;

        /** One per request, {@code null} for a notification (or a blocking call still running). */
        private final RpcReply[] replies;
        /** Each request's method label (a served method's name, or unknown or invalid). */
        private final String[] labels;

        private final boolean batch;
        private final Consumer<Replies> done;
        private final ServerMetrics metrics;
        /** The dispatch (until it is done) and the blocking calls submitted and not returned yet. */
        private final AtomicInteger outstanding = new AtomicInteger(1);

        PendingReplies(int requests, boolean batch, Consumer<Replies> done, ServerMetrics metrics) {
            this.replies = new RpcReply[requests];
            this.labels = new String[requests];
            this.batch = batch;
            this.done = done;
            this.metrics = metrics;
        }

        void label(int index, String label) {
            labels[index] = label;
        }

        /** Sets the reply at {@code index} while dispatching; {@code null} for a notification. */
        void set(int index, RpcReply reply) {
            replies[index] = reply;
        }

        /** Sets the reply of a blocking call at {@code index}, back on the event loop. */
        void arrived(int index, RpcReply reply) {
            replies[index] = reply;
            if (outstanding.decrementAndGet() == 0) {
                finish();
            }
        }

        /** Every call dispatched, on the event loop. */
        void dispatched() {
            if (outstanding.decrementAndGet() == 0) {
                finish();
            }
        }

        /**
         * The dispatch ({@link #DISPATCH}) or the blocking call at {@code index} (its reply, or {@code null}) ended and
         * cannot reach the event loop: if it ends last, the replies are released, as none can be sent.
         */
        void abandoned(int index, RpcReply reply) {
            if (index != DISPATCH) {
                replies[index] = reply;
            }
            if (outstanding.decrementAndGet() == 0) {
                for (RpcReply set : replies) {
                    if (set != null) {
                        set.release();
                    }
                }
            }
        }

        private void finish() {
            List<RpcReply> sent = new ArrayList<>(replies.length);
            Tally tally = Tally.NONE;
            RpcError error = null;
            for (int i = 0; i < replies.length; i++) {
                RpcReply reply = replies[i];
                if (reply == null) {
                    continue;
                }
                sent.add(reply);
                metrics.replied(labels[i], reply.error());
                if (error == null) {
                    error = reply.error();
                }
                if (reply.result() != null) {
                    tally = tally.plus(reply.result().tally());
                }
            }
            String method = batch ? ServerMetrics.BATCH : labels.length == 1 ? labels[0] : ServerMetrics.NO_METHOD;
            done.accept(new Replies(sent, batch, new ResponseSummary(method, tally.hashes(), tally.hits(), error)));
        }
    }
}
