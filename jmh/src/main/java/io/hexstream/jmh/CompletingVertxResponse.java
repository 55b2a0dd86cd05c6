package io.hexstream.jmh;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.lang.reflect.Proxy;

/**
 * A Vert.x {@link HttpServerResponse} without a connection, for a stream writing into it in JMH: every
 * {@code write}/{@code end} completes at once (so its writer releases each chunk as soon as it is handed on, as after a
 * socket write), the write queue is never full, the connection never closes; the bytes are counted, not kept. Other
 * methods return the response (the fluent setters) or their type's default. A dynamic proxy: its cost, a few reflective
 * calls per chunk, is per write, not per byte.
 */
public final class CompletingVertxResponse {
    private final MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    private final HttpServerResponse response;
    private long written;

    public CompletingVertxResponse() {
        response = (HttpServerResponse) Proxy.newProxyInstance(
                HttpServerResponse.class.getClassLoader(), new Class<?>[] {HttpServerResponse.class}, (proxy, m, a) -> {
                    switch (m.getName()) {
                        case "write", "end" -> {
                            if (a != null && a.length == 1 && a[0] instanceof Buffer buffer) {
                                written += buffer.length();
                            }
                            return Future.succeededFuture();
                        }
                        case "headers" -> {
                            return headers;
                        }
                        case "hashCode" -> {
                            return System.identityHashCode(proxy);
                        }
                        case "equals" -> {
                            return proxy == a[0];
                        }
                        case "toString" -> {
                            return "CompletingVertxResponse";
                        }
                        default -> {
                            Class<?> type = m.getReturnType();
                            if (type.isInstance(proxy)) {
                                return proxy;
                            }
                            return type == boolean.class ? Boolean.FALSE : type.isPrimitive() ? 0 : null;
                        }
                    }
                });
    }

    /** The response; use it from one thread. */
    public HttpServerResponse response() {
        return response;
    }

    /** Body bytes written so far. */
    public long written() {
        return written;
    }
}
