package io.hexstream.server.rpc;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.metrics.Exchange;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JSON-RPC 2.0 dispatch for the requests of one HTTP request: finds each method ({@code -32601}
 * otherwise), answers invalid requests ({@code -32600}), runs the calls in order, answers each that is
 * not a notification, and turns a failing call into its error ({@code -32603} for a bug).
 *
 * <p>Threads: called on the channel's event loop. A method that does not block runs there, at once; one
 * that {@link RpcMethod#blocking() blocks} is handed to the ingest executor (a {@link BoundedExecutor}:
 * a few threads and a bounded queue; when it is full the call is answered {@code -32000} "server busy"
 * and not run at all). The replies are handed back on the event loop, all at once, in request order.
 * A large request may be dispatched from another thread than its event loop (the replies still come
 * back on the loop).
 *
 * <p>Response cap: the replies to one HTTP request take at most {@code maxResponseBytes}, counted
 * exactly ({@link ResponseWriter#length}) as the calls are answered in order, before any byte is
 * written. A call whose result would pass the cap gets {@code -32000} instead, its result never encoded
 * (a blocking call, whose reply is reserved {@link #BLOCKING_REPLY_RESERVE} bytes besides its id, is not
 * even run). Error replies are always sent: a response may pass the cap by the errors of the calls
 * after it.
 */
public final class JsonRpcDispatcher {
    /** Bytes a blocking method's reply may take besides its id: what the cap reserves before running it. */
    public static final int BLOCKING_REPLY_RESERVE = 1024;
    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcDispatcher.class);

    private final Map<String, RpcMethod> methods;
    private final ResponseWriter writer;
    private final Executor executor;
    private final long maxResponseBytes;
    private final ServerMetrics metrics;

    /**
     * @param methods the methods served, by {@link RpcMethod#name()}
     * @param ingest where blocking methods run: a {@link BoundedExecutor} (its owner shuts it down)
     * @param maxResponseBytes the cap on the replies to one HTTP request ({@code --max-response-bytes})
     * @param metrics told each reply's method and outcome, and each refusal by the cap or a full ingest queue
     */
    public JsonRpcDispatcher(List<RpcMethod> methods, ResponseWriter writer, Executor ingest, long maxResponseBytes,
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
        this.writer = writer;
        this.maxResponseBytes = maxResponseBytes;
        this.executor = ingest;
        this.metrics = metrics;
    }

    /**
     * Answers {@code requests}; calls {@code done} with the replies on {@code loop}, once every call
     * is answered (at once, if called on {@code loop} and no call blocks). Called on {@code loop}, or on
     * a thread that may block.
     */
    public void dispatch(List<RpcRequest> requests, boolean batch, EventExecutor loop, Consumer<Replies> done) {
        Answers answers = new Answers(requests, batch, done, metrics);
        long total = batch ? 2 : 0; // [ and ]
        boolean first = true;
        for (int i = 0; i < requests.size(); i++) {
            RpcRequest request = requests.get(i);
            RpcMethod method = request.invalid() == null ? methods.get(request.method()) : null;
            answers.label(i, request.invalid() != null ? ServerMetrics.INVALID_REQUEST
                    : method == null ? ServerMetrics.UNKNOWN_METHOD : method.name());
            boolean reply = !request.isNotification();
            long separator = batch && !first && reply ? 1 : 0;
            first &= !reply;
            if (method != null && method.blocking()) {
                long reserve = (reply ? request.id().length : 0) + BLOCKING_REPLY_RESERVE;
                RpcReply refusal = total + separator + reserve > maxResponseBytes ? tooLarge(request)
                        : submit(request, method, answers, i, loop);
                if (refusal == null) {
                    total += reply ? separator + reserve : 0;
                    continue;
                }
                answers.set(i, reply ? refusal : null);
                total += reply ? separator + writer.length(refusal) : 0;
                continue;
            }
            RpcReply answer = method == null ? unanswerable(request) : call(request, method);
            if (!reply) {
                answers.set(i, null);
                continue;
            }
            long length = writer.length(answer);
            if (answer.result() != null && total + separator + length > maxResponseBytes) {
                answer = tooLarge(request);
                length = writer.length(answer);
            }
            total += separator + length;
            answers.set(i, answer);
        }
        if (loop.inEventLoop()) {
            answers.dispatched();
            return;
        }
        try {
            loop.execute(answers::dispatched);
        } catch (RejectedExecutionException e) {
            LOG.debug("a request answered after the event loop stopped");
        }
    }

    /** Runs {@code method} on the executor, answering on {@code loop}; returns the refusal if the queue is full. */
    private RpcReply submit(RpcRequest request, RpcMethod method, Answers answers, int index, EventExecutor loop) {
        answers.pending.incrementAndGet();
        try {
            executor.execute(() -> {
                RpcReply answer = call(request, method);
                try {
                    loop.execute(() -> answers.arrived(index, request.isNotification() ? null : answer));
                } catch (RejectedExecutionException e) {
                    LOG.debug("{} answered after the event loop stopped", method.name());
                }
            });
            return null;
        } catch (RejectedExecutionException e) {
            answers.pending.decrementAndGet();
            metrics.refused(ServerMetrics.Limit.SERVER_BUSY);
            return RpcReply.failure(request.id(), RpcError.SERVER_ERROR, "server busy");
        }
    }

    private static RpcReply unanswerable(RpcRequest request) {
        return request.invalid() != null
                ? RpcReply.failure(request.id(), RpcError.INVALID_REQUEST, request.invalid())
                : RpcReply.failure(request.id(), RpcError.METHOD_NOT_FOUND, request.method());
    }

    private static RpcReply call(RpcRequest request, RpcMethod method) {
        try {
            return RpcReply.success(request.id(), method.call(request.params()));
        } catch (RpcException e) {
            return RpcReply.failure(request.id(), e.error(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("{} failed", method.name(), e);
            return RpcReply.failure(request.id(), RpcError.INTERNAL_ERROR, null);
        }
    }

    private RpcReply tooLarge(RpcRequest request) {
        metrics.refused(ServerMetrics.Limit.MAX_RESPONSE_BYTES);
        return RpcReply.failure(request.id(), RpcError.SERVER_ERROR, "response too large: the replies to this"
                + " HTTP request would pass " + maxResponseBytes + " bytes (--max-response-bytes)");
    }

    /**
     * The answers to one HTTP request as they come in: set by the dispatching thread, then by blocking
     * calls back on the event loop; finished on the event loop.
     */
    private static final class Answers {
        private final List<RpcRequest> requests;
        private final RpcReply[] replies;
        /** Each request's method label (a served method's name, or unknown or invalid). */
        private final String[] labels;
        private final boolean batch;
        private final Consumer<Replies> done;
        private final ServerMetrics metrics;
        /** Blocking calls submitted and not answered yet. */
        private final AtomicInteger pending = new AtomicInteger();
        /** Whether every call has been dispatched; touched only on the event loop. */
        private boolean dispatched;

        Answers(List<RpcRequest> requests, boolean batch, Consumer<Replies> done, ServerMetrics metrics) {
            this.requests = requests;
            this.replies = new RpcReply[requests.size()];
            this.labels = new String[requests.size()];
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
            if (pending.decrementAndGet() == 0 && dispatched) {
                finish();
            }
        }

        void dispatched() {
            dispatched = true;
            if (pending.get() == 0) {
                finish();
            }
        }

        private void finish() {
            List<RpcReply> sent = new ArrayList<>(replies.length);
            int hashes = 0;
            int hits = 0;
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
                if (reply.result() instanceof RpcResult.BlobsAndProofsV1 v1) {
                    hashes += v1.entries().size();
                    hits += served(v1.entries());
                } else if (reply.result() instanceof RpcResult.BlobsAndProofsV2 v2) {
                    hashes += requested(requests.get(i));
                    hits += v2.entries() == null ? 0 : served(v2.entries());
                } else if (reply.result() instanceof RpcResult.BlobCellsAndProofsV1 v4) {
                    hashes += v4.entries().size();
                    for (BlobEntry entry : v4.entries()) {
                        hits += entry != null && entry.cellProofs() != null ? 1 : 0;
                    }
                }
            }
            String method = batch ? ServerMetrics.BATCH : labels.length == 1 ? labels[0] : ServerMetrics.NO_METHOD;
            done.accept(new Replies(sent, batch, new Exchange(method, hashes, hits, error)));
        }

        private static int served(List<?> entries) {
            int served = 0;
            for (Object entry : entries) {
                served += entry != null ? 1 : 0;
            }
            return served;
        }

        /** The hashes a getBlobs call that was answered asked for. */
        private static int requested(RpcRequest request) {
            try {
                return request.params().oneStringArray().size();
            } catch (RpcException e) {
                return 0; // not reached: the call was answered with a result
            }
        }
    }
}
