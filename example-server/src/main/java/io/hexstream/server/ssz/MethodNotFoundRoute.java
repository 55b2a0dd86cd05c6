package io.hexstream.server.ssz;

import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.http.Rejection;
import io.hexstream.server.http.Route;
import io.hexstream.server.http.RouteTable;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpVersion;

/**
 * The fallback of the REST routes' prefix ({@link RouteTable.Builder#fallback}, {@code /engine/}): a URL that matches
 * no endpoint is {@code 404} with the problem {@code method-not-found} (execution-apis #793, {@code refactor.md},
 * "Error model": {@code -32601} of JSON-RPC), {@code {"type":"/engine-api/errors/method-not-found","detail":"…"}},
 * refused on its head, its body unread (the connection then closes, as for any refusal). It needs a JWT as every
 * request does ("Authentication": "on every request"): without one the answer is {@code 401}, so an unauthenticated
 * client learns no more than from the empty {@code 404} before. Not in the access log (a refusal, as that {@code 404}
 * was). Stateless.
 */
final class MethodNotFoundRoute implements Route {
    /** The problem, canned: it quotes nothing of the request. */
    static final Problem PROBLEM =
            Problem.methodNotFound("no endpoint at this URL; GET " + SszRoute.CAPABILITIES + " lists those served");

    private static final Rejection REJECTION = PROBLEM.rejection();

    @Override
    public boolean needsJwt() {
        return true;
    }

    /** Any: no body is read, {@link #rejectHead} refuses every head. */
    @Override
    public int maxBodyBytes() {
        return Integer.MAX_VALUE;
    }

    @Override
    public Rejection tooLarge(long contentLength) {
        return REJECTION;
    }

    @Override
    public Rejection rejectHead(HttpVersion version, HttpHeaders headers) {
        return REJECTION;
    }

    /** Reached only by a transport that does not refuse on the head: the same answer. */
    @Override
    public void handle(ByteBuf body, ReplySink sink) {
        PROBLEM.answer(sink, null);
    }
}
