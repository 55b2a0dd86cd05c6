package example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;
import org.junit.jupiter.api.Test;

/** Runs every example against the codec as installed, and checks each output exactly. */
class ExamplesTest {
    private static final HexFormat HEX = HexFormat.of();
    private final Random random = new Random(7);
    private final byte[] blob = bytes(131_072);
    private final List<byte[]> proofs = new ArrayList<>();

    ExamplesTest() {
        for (int i = 0; i < 128; i++) {
            proofs.add(bytes(48));
        }
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private String proofsJson() {
        List<String> quoted = new ArrayList<>();
        proofs.forEach(p -> quoted.add("\"0x" + HEX.formatHex(p) + "\""));
        return "[" + String.join(",", quoted) + "]";
    }

    private static byte[] post(int port) throws Exception {
        return post(port, false);
    }

    /** The body, checked to be JSON of exact {@code Content-Length} or, if {@code chunked}, chunked. */
    private static byte[] post(int port, boolean chunked) throws Exception {
        HttpResponse<byte[]> response = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode());
        assertEquals(
                "application/json",
                response.headers().firstValue("content-type").orElseThrow());
        if (chunked) {
            assertEquals(
                    "chunked",
                    response.headers().firstValue("transfer-encoding").orElseThrow());
        } else {
            assertEquals(
                    Long.toString(response.body().length),
                    response.headers().firstValue("content-length").orElseThrow());
        }
        return response.body();
    }

    @Test
    void hex() {
        String hash = "0x01" + "ab".repeat(31);
        assertEquals(
                "01" + "ab".repeat(31) + " " + (2 + 2 * 131_072 + 2 + 2 * 48),
                HexExample.roundTrip(blob, Bytes48.wrap(proofs.get(0)), hash));
    }

    @Test
    void netty() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel server = NettyBlobServer.bind(group, "127.0.0.1", 0, blob, proofs)
                    .sync()
                    .channel();
            String expected = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[{\"blob\":\"0x" + HEX.formatHex(blob)
                    + "\",\"proofs\":" + proofsJson() + "}]}";
            assertArrayEquals(
                    expected.getBytes(StandardCharsets.US_ASCII),
                    post(((InetSocketAddress) server.localAddress()).getPort()));
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void jackson() throws Exception {
        List<Bytes48> tuweniProofs = new ArrayList<>();
        proofs.forEach(p -> tuweniProofs.add(Bytes48.wrap(p)));
        String expected = "{\"blob\":\"0x" + HEX.formatHex(blob) + "\",\"proofs\":" + proofsJson() + "}";
        assertEquals(
                expected,
                new String(
                        JacksonExample.blobJson(new JacksonExample.BlobAndProofV2(Bytes.wrap(blob), tuweniProofs)),
                        StandardCharsets.US_ASCII));
        assertEquals(
                "{\"commitment\":\"0x00ff\"}",
                JacksonExample.commitmentJson(new JacksonExample.Commitment(new byte[] {0, -1})));
    }

    @Test
    void besuEngine() throws Exception {
        List<Bytes48> tuweniProofs = new ArrayList<>();
        proofs.forEach(p -> tuweniProofs.add(Bytes48.wrap(p)));
        Vertx vertx = Vertx.vertx();
        try {
            HttpServer server = BesuEngineServer.start(
                            vertx, 0, List.of(new BesuEngineServer.BlobAndProofV2(Bytes.wrap(blob), tuweniProofs)))
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            String expected = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[{\"blob\":\"0x" + HEX.formatHex(blob)
                    + "\",\"proofs\":" + proofsJson() + "}]}";
            assertArrayEquals(expected.getBytes(StandardCharsets.US_ASCII), post(server.actualPort(), true));
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void vertx() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            HttpServer server = VertxBlobServer.start(vertx, 0, blob, proofs)
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            String expected = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"blob\":\"0x" + HEX.formatHex(blob)
                    + "\",\"proofs\":" + proofsJson() + "}}";
            assertArrayEquals(expected.getBytes(StandardCharsets.US_ASCII), post(server.actualPort()));
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
