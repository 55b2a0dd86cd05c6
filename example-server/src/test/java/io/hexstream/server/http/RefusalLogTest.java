package io.hexstream.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Refusals are logged with their reason, at most a line a second, the others counted. */
class RefusalLogTest {
    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.1", 40000);

    @Test
    void oneLineASecondAndTheRestCounted() {
        AtomicLong now = new AtomicLong(5_000_000_000L);
        List<String> lines = new ArrayList<>();
        RefusalLog log = new RefusalLog(now::get, lines::add);
        log.refused(CLIENT, "401 for POST /: no Authorization header");
        now.addAndGet(400_000_000L);
        log.refused(CLIENT, "401 for POST /: iat is 61 s before now, at most 60 s either way");
        log.refused(CLIENT, "404 for POST /x");
        now.addAndGet(600_000_000L);
        log.refused(CLIENT, "401 for POST /: wrong signature: the token is not signed with this server's secret");
        assertEquals(
                List.of(
                        "refused /127.0.0.1:40000: 401 for POST /: no Authorization header",
                        "refused /127.0.0.1:40000: 401 for POST /: wrong signature: the token is not signed with this server's"
                                + " secret (and 2 more refusals not logged)"),
                lines);
    }
}
