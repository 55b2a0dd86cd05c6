package io.hexstream.server.cli;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.client.VersionedHash;
import io.hexstream.client.testing.CannedHttpServer;
import io.hexstream.server.testing.ServerProcess.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a server writes that {@code probe} quotes in its one line (a JSON-RPC error's {@code message}, a problem's
 * {@code detail}, a status line's reason) reaches the terminal escaped: a newline, ESC and BEL as {@code \n},
 * {@code \x1b}, {@code \x07}, never raw (a status line's reason with ESC or BEL is refused by Netty's decoder; one with
 * an 8-bit control, CSI {@code 0x9b}, is not).
 */
class ProbePrintsEscapedTest {
    private static final List<VersionedHash> HASHES = List.of(VersionedHash.wrap(hash()));

    private static byte[] hash() {
        byte[] hash = new byte[32];
        Arrays.fill(hash, (byte) 0x5a);
        hash[0] = VersionedHash.VERSION_KZG;
        return hash;
    }

    private static byte[] response(String status, String contentType, String body) {
        byte[] bytes = body.getBytes(UTF_8);
        byte[] head = ("HTTP/1.1 " + status + "\r\nContent-Type: " + contentType + "\r\nContent-Length: " + bytes.length
                        + "\r\nConnection: close\r\n\r\n")
                .getBytes(ISO_8859_1);
        byte[] response = Arrays.copyOf(head, head.length + bytes.length);
        System.arraycopy(bytes, 0, response, head.length, bytes.length);
        return response;
    }

    private static Run probe(Path dir, String name, byte[] response, String... options) throws Exception {
        Path sub = Files.createDirectories(dir.resolve(name));
        try (CannedHttpServer server = new CannedHttpServer(n -> response)) {
            return ProbeRuns.probe("http://127.0.0.1:" + server.port() + "/", sub, HASHES, options);
        }
    }

    @Test
    void anErrorsMessageAProblemsDetailAndAReasonPhraseArePrintedEscaped(@TempDir Path dir) throws Exception {
        assertEquals(
                new Run(1, "", "engine_getBlobsV2: -32000 \\x1b[31mX\\nFAKE LOG LINE\\x07\n"),
                probe(
                        dir,
                        "message",
                        response(
                                "200 OK",
                                "application/json",
                                "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32000,"
                                        + "\"message\":\"\\u001b[31mX\\nFAKE LOG LINE\\u0007\"}}"),
                        "--method",
                        "engine_getBlobsV2"));
        Run detail = probe(
                dir,
                "detail",
                response(
                        "400 Bad Request",
                        "application/problem+json",
                        "{\"type\":\"/engine-api/errors/ssz-decode-error\",\"title\":\"t\\u0007\","
                                + "\"detail\":\"\\u001b[2Jd\\u009b\"}"),
                "--method",
                "engine_getBlobsV2",
                "--transport",
                "ssz");
        assertEquals(new Run(1, "", "engine_getBlobsV2: HTTP 400 t\\x07: \\x1b[2Jd\\x9b\n"), detail);
        assertEquals(
                new Run(1, "", "engine_getBlobsV2: HTTP 401 no\\x9b31m\\xe9: \\x1b[2Jx\n"),
                probe(
                        dir,
                        "reason",
                        response("401 no\u009b31m\u00e9", "text/plain", "\u001b[2Jx"),
                        "--method",
                        "engine_getBlobsV2"));
    }
}
