package io.sluice.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

/** The libraries' log lines with their exception class names in words (without --verbose); Sluice's own as they are. */
class LogWordsTest {

    private final LoggerContext context = new LoggerContext();
    private final LogWords words = new LogWords();

    private String said(String logger, String message) {
        Logger log = context.getLogger(logger);
        return words.convert(new LoggingEvent(Logger.class.getName(), log, Level.WARN, message, null, null));
    }

    @Test
    void aLibrarysLineSaysItsClassNamesInWords() {
        assertEquals("Got error produce response on t-0 due to not leader or follower", said(
                "org.apache.kafka.clients.producer.internals.Sender", "Got error produce response on t-0 due to "
                        + "org.apache.kafka.common.errors.NotLeaderOrFollowerException"));
    }

    @Test
    void sluicesOwnLinesStayAsTheyAre() {
        String line = "dead letter of com.acme.PaymentError-0@7 written to com.acme.PaymentError-dlq";
        assertEquals(line, said("io.sluice.engine", line));
        assertEquals("partition com.acme.PaymentException is behind", said("sluice.progress",
                "partition com.acme.PaymentException is behind"));
    }
}
