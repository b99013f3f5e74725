package io.sluice.cli.console;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A log line's message with the exception class names libraries put in them said in words: the Kafka producer's
 * "… due to org.apache.kafka.common.errors.NotLeaderOrFollowerException" reads "… due to not leader or follower" (a new
 * user's run). Without {@code --verbose} only; Sluice's own lines have no class names to begin with.
 *
 * <p>Threading: stateless; called by any thread that logs.
 */
public final class LogWords extends ClassicConverter {

    /** A qualified exception or error class name: lower-case package words, then the class. */
    private static final Pattern CLASS_NAME = Pattern.compile(
            "\\b(?:[a-z][a-z0-9_]*\\.)+([A-Z][A-Za-z0-9_$]*?)(Exception|Error)(?![-\\w])");
    private static final Pattern WORD_START = Pattern.compile("(?<=[a-z0-9])(?=[A-Z])");

    @Override
    public String convert(ILoggingEvent event) {
        // Sluice's own lines name topics, never classes: a topic such as com.acme.PaymentError stays as it is
        String logger = event.getLoggerName();
        return logger.startsWith("io.sluice.") || logger.startsWith("sluice.") ? event.getFormattedMessage()
                : inWords(event.getFormattedMessage());
    }

    static String inWords(String message) {
        if (message == null || message.indexOf('.') < 0) {
            return message;
        }
        Matcher m = CLASS_NAME.matcher(message);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String words = m.group(1).isEmpty() ? m.group(2).toLowerCase(Locale.ROOT)
                    : WORD_START.matcher(m.group(1)).replaceAll(" ").toLowerCase(Locale.ROOT);
            m.appendReplacement(out, Matcher.quoteReplacement(words));
        }
        m.appendTail(out);
        return out.toString();
    }
}
