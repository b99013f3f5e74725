package io.sluice.cli.probe;

import io.sluice.cli.RunFailure;
import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.ConfigProblem;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.pipeline.PipelineKeys;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bootstrap probe for a pipeline, before any of its clients exists, so that a wrong protocol is said at once
 * instead of in the Kafka client's silent retries. A broker that answers in another protocol than the file's
 * {@code tls} and {@code sasl} sections say is a mistake in the file (exit status 2, pointing at
 * {@code source.bootstrap-servers}); no broker answering at all is the environment (exit status 1); a dead address
 * next to live ones is a warning.
 *
 * <p>Stateless.
 */
public final class BrokerCheck {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.run");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Pattern FIX = Pattern.compile("set security\\.protocol=(\\w+)");
    /** The probe speaks Kafka's property names; a pipeline file says the same with its sections. */
    private static final Map<String, String> SECTIONS = Map.of(
            "PLAINTEXT", "no source.tls or source.sasl section",
            "SSL", "a source.tls section",
            "SASL_PLAINTEXT", "a source.sasl section with source.tls.enabled: false",
            "SASL_SSL", "source.tls and source.sasl sections");

    private BrokerCheck() {
    }

    /**
     * @throws ConfigException when a broker answers in another protocol than the pipeline's settings
     * @throws RunFailure      when no broker answers
     */
    public static void require(Pipeline pipeline) throws ConfigException, RunFailure {
        try {
            new BootstrapProbe(TIMEOUT).verify(pipeline.source().connectionProperties())
                    .forEach(dead -> LOG.warn("{}; going on with the brokers that answer", dead));
        } catch (BootstrapProbe.BootstrapException e) {
            List<String> lines = e.getMessage().lines().toList();
            if (!e.mismatch()) {
                throw new RunFailure("no broker answers: " + String.join("; ", lines));
            }
            var at = pipeline.settings().at(PipelineKeys.BOOTSTRAP_SERVERS);
            String key = PipelineKeys.BOOTSTRAP_SERVERS.path() + ": ";
            throw new ConfigException(lines.stream().map(line -> new ConfigProblem(at, key + inFileTerms(line)))
                    .toList());
        }
    }

    /** "... set security.protocol=SSL" gains "(in a pipeline file: a source.tls section)". */
    static String inFileTerms(String problem) {
        if (problem.contains("set sasl.mechanism=")) {
            // the client's key, where a file has its own (a new user's run)
            return problem + " (in a pipeline file: source.sasl.mechanism)";
        }
        Matcher m = FIX.matcher(problem);
        if (!m.find() || !SECTIONS.containsKey(m.group(1))) {
            return problem;
        }
        return problem + " (in a pipeline file: " + SECTIONS.get(m.group(1)) + ")";
    }
}
