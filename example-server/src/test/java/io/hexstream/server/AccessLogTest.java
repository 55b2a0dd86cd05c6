package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.ServerProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --access-log}: one line per response on the logger {@code hexstream.access}, with the method, the hashes asked
 * for and found, the body bytes, the time to last byte and the outcome; none without the option.
 */
class AccessLogTest {
    private static final String MISSING = "0x01" + "ab".repeat(31);
    private static final Pattern LINE = Pattern.compile(".* INFO access - (.*) ttlb_ms=\\d+\\.\\d (outcome=.*)");

    @Test
    void oneLinePerResponseWhenAskedForOnly(@TempDir Path dir) throws Exception {
        List<Integer> bodies = new ArrayList<>();
        assertEquals(
                List.of(
                        "engine_getBlobsV3 hashes=2 hits=0 bytes=" + 45 + " outcome=ok",
                        "engine_getBlobsV1 hashes=0 hits=0 bytes=" + 92 + " outcome=-38005",
                        "batch hashes=1 hits=0 bytes=" + 138 + " outcome=ok",
                        "engine_getBlobsV4 hashes=1 hits=0 bytes=" + 40 + " outcome=ok"),
                accessLines(dir, "on", bodies, "--access-log"));
        assertEquals(List.of(45, 92, 138, 40), bodies, "the bytes logged are the bodies received");
        assertEquals(List.of(), accessLines(dir, "off", new ArrayList<>()));
    }

    /** The access lines (time to last byte left out) of a server that answers four requests. */
    private static List<String> accessLines(Path dir, String name, List<Integer> bodies, String... options)
            throws Exception {
        int port = ServerProcess.freePort();
        Path data = dir.resolve(name);
        List<String> args = new ArrayList<>(
                List.of("--port", Integer.toString(port), "--data-dir", data.toString(), "--generate", "0"));
        args.addAll(List.of(options));
        String log;
        try (ServerProcess server =
                ServerProcess.serve(dir, name, port, data.resolve("jwt.hex"), args.toArray(String[]::new))) {
            EngineClient client = server.client();
            for (String json : List.of(
                    EngineClient.request(1, "engine_getBlobsV3", EngineClient.hashParams(List.of(MISSING, MISSING))),
                    EngineClient.request(2, "engine_getBlobsV1", EngineClient.hashParams(List.of(MISSING))),
                    "[" + EngineClient.request(3, "engine_getBlobsV3", EngineClient.hashParams(List.of(MISSING))) + ","
                            + EngineClient.request(4, "engine_exchangeCapabilities", "[[]]") + "]",
                    EngineClient.request(
                            5, "engine_getBlobsV4", "[[\"" + MISSING + "\"],\"0x" + "ff".repeat(16) + "\"]"))) {
                bodies.add(client.post(json).body().length);
            }
            assertEquals(0, server.stop());
            log = server.log();
        }
        assertFalse(log.contains("LEAK"), log);
        // slf4j-simple shows the last part of the logger's name
        return log.lines()
                .filter(line -> line.contains(" INFO access - "))
                .map(line -> {
                    var matcher = LINE.matcher(line);
                    assertTrue(matcher.matches(), line);
                    return matcher.group(1) + " " + matcher.group(2);
                })
                .toList();
    }
}
