package io.sluice.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The libraries' log lines with their exception class names in words (without --verbose). */
class LogWordsTest {

    @Test
    void aQualifiedExceptionNameIsSaidInWords() {
        assertEquals("[Producer clientId=p] Received invalid metadata error in produce request on partition t-0 due to "
                + "not leader or follower. Going to request metadata update now", LogWords.inWords("[Producer "
                + "clientId=p] Received invalid metadata error in produce request on partition t-0 due to "
                + "org.apache.kafka.common.errors.NotLeaderOrFollowerException. Going to request metadata update "
                + "now"));
        assertEquals("out of memory: Java heap space", LogWords.inWords("java.lang.OutOfMemoryError: Java heap "
                + "space"));
        assertEquals("offsets t-0=12 and clicks.v2 stay", LogWords.inWords("offsets t-0=12 and clicks.v2 stay"),
                "dotted words that are not class names stay");
        assertEquals("on partition com.acme.PaymentError-0 due to not leader or follower", LogWords.inWords("on "
                + "partition com.acme.PaymentError-0 due to org.apache.kafka.common.errors.NotLeaderOrFollowerException"),
                "a topic's name is not a class's");
    }
}
