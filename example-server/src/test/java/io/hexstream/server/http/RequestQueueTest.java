package io.hexstream.server.http;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.testing.Poll;
import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.exec.BoundedExecutor;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.testing.HttpConnection;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A full large-request queue refuses with {@code 503} and never has a body handled (parsed) on the event loop: on the
 * request's head, before its body is sent, when its {@code Content-Length} says it is large; once the body is whole
 * when it came without a length. The route is the seam: it records the thread of each body it is handed.
 */
class RequestQueueTest {
    private static final int LARGE = EngineApiHandler.LARGE_REQUEST_BYTES + 1000;
    private static final String BUSY = "server busy: the request queue is full, try again later\n";

    /** Records where each body was handled, and answers with its length. */
    private static final class Recording implements Route {
        final List<String> threads = new CopyOnWriteArrayList<>();

        @Override
        public boolean needsJwt() {
            return false;
        }

        @Override
        public int maxBodyBytes() {
            return 1 << 20;
        }

        @Override
        public void handle(ByteBuf body, Responder responder) {
            threads.add(Thread.currentThread().getName());
            responder.respondText(HttpResponseStatus.OK, "got " + body.readableBytes(), null);
        }
    }

    @Test
    void aFullQueueRefusesWithoutParsingOnTheEventLoop() throws Exception {
        Recording route = new Recording();
        ThreadPoolExecutor queue = BoundedExecutor.create("test-requests", 1, 1);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        queue.execute(() -> {
            running.countDown();
            await(gate);
        });
        assertTrue(running.await(10, TimeUnit.SECONDS));
        RefusalLog refusals = new RefusalLog();
        EngineServer.Port port = new EngineServer.Port(
                "127.0.0.1",
                0,
                new EngineApiInitializer(
                        RouteTable.builder().add(HttpMethod.POST, "/", route).build(),
                        Authenticator.NONE,
                        new EngineApiInitializer.Limits(1 << 20, 16, Duration.ZERO, Duration.ZERO),
                        queue,
                        refusals,
                        ServerMetrics.NONE),
                new ConnectionLimit(16, "--max-connections", refusals, ServerMetrics.NONE));
        try (EngineServer server = EngineServer.start(List.of(port));
                HttpConnection queued = open(server, port);
                HttpConnection onItsHead = open(server, port);
                HttpConnection chunked = open(server, port)) {
            queued.send(head("Content-Length: " + LARGE));
            queued.send(new byte[LARGE]);
            Poll.until(() -> queue.getQueue().size() >= 1, Duration.ofSeconds(10), "the first large request is queued");

            onItsHead.send(head("Content-Length: " + LARGE)); // its body is never sent
            assertEquals("503 " + BUSY, response(onItsHead));

            chunked.send(head("Transfer-Encoding: chunked"));
            chunked.send((Integer.toHexString(LARGE) + "\r\n").getBytes(US_ASCII));
            chunked.send(new byte[LARGE]);
            chunked.send("\r\n0\r\n\r\n".getBytes(US_ASCII));
            assertEquals("503 " + BUSY, response(chunked));
            assertTrue(chunked.closedByServerWithin(Duration.ofSeconds(5)));

            assertEquals(List.of(), route.threads, "no body handled while the queue is full");
            gate.countDown();
            assertEquals("200 got " + LARGE + "\n", response(queued));
            assertEquals(1, route.threads.size());
            assertTrue(route.threads.get(0).startsWith("test-requests-"), route.threads.toString());
        } finally {
            gate.countDown();
            queue.shutdownNow();
        }
    }

    private static HttpConnection open(EngineServer server, EngineServer.Port port) throws Exception {
        HttpConnection connection = HttpConnection.open(server.address(port).getPort());
        connection.socket().setSoTimeout(10_000);
        return connection;
    }

    private static byte[] head(String length) {
        return ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + length + "\r\n\r\n").getBytes(US_ASCII);
    }

    /** The status and body of the next response. */
    private static String response(HttpConnection connection) throws Exception {
        HttpConnection.Head head = connection.readHead();
        return head.status() + " " + new String(connection.readBody(head), US_ASCII);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
