package io.sluice.cli.validate;

import io.sluice.cli.CliContext;
import io.sluice.cli.RunFailure;
import io.sluice.cli.cluster.SourceTopics;
import io.sluice.cli.config.ConfigException;
import io.sluice.cli.console.Console;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.pipeline.SourceConfig;
import io.sluice.cli.probe.BrokerCheck;
import io.sluice.core.ErrorWords;
import io.sluice.storage.backend.StorageBackend;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * {@code validate --connect}: asks the brokers for the cluster and the pipeline's topics, and lists a corner of the
 * storage, with the pipeline's own settings and credentials. One line per check.
 *
 * <p>Threading: one thread.
 */
final class ConnectionCheck {

    /** Listed rather than the root itself: a mature archive holds millions of files. */
    private static final String STORAGE_PROBE = "_sluice/connect-check/";
    static final long TIMEOUT_SECONDS = 20;

    private final CliContext context;

    ConnectionCheck(CliContext context) {
        this.context = context;
    }

    /** True when every check passed. */
    boolean check(Pipeline pipeline) throws ConfigException {
        boolean brokers = brokers(pipeline);
        boolean storage = storage(pipeline);
        return brokers && storage;
    }

    /** @throws ConfigException when a broker speaks another protocol than the file says */
    private boolean brokers(Pipeline pipeline) throws ConfigException {
        Console console = context.console();
        SourceConfig source = pipeline.source();
        String servers = String.join(",", source.bootstrapServers());
        try {
            BrokerCheck.require(pipeline);
        } catch (RunFailure e) {
            console.result("brokers: " + servers + " FAILED: " + e.getMessage());
            return false;
        }
        try (Admin admin = SourceTopics.admin(source)) {
            var cluster = admin.describeCluster();
            String id = cluster.clusterId().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            int nodes = cluster.nodes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).size();
            console.result("brokers: " + servers + " answer over " + source.securityProtocol() + " (cluster " + id + ", "
                    + nodes + (nodes == 1 ? " broker)" : " brokers)"));
            List<String> topics = new ArrayList<>(SourceTopics.resolve(source));
            if (pipeline.processing().deadLetterTopic() != null) {
                topics.add(pipeline.processing().deadLetterTopic());
            }
            boolean ok = true;
            for (String topic : topics) {
                ok &= topic(admin, topic);
            }
            return ok;
        } catch (Exception e) {
            console.result("brokers: " + servers + " FAILED: " + reason(e));
            return false;
        }
    }

    private boolean topic(Admin admin, String topic) throws Exception {
        try {
            Map<String, TopicDescription> found = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            int count = found.get(topic).partitions().size();
            context.console().result("topic " + topic + ": " + count + (count == 1 ? " partition" : " partitions"));
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                context.console().result("topic " + topic + " FAILED: it does not exist");
                return false;
            }
            throw e;
        }
    }

    private boolean storage(Pipeline pipeline) {
        Console console = context.console();
        if (!pipeline.pending().isEmpty()) {
            console.result("storage: " + pipeline.sink().location() + " not checked: " + pipeline.sink().storage()
                    .backend().scheme() + ":// is not in this build yet");
            return true;
        }
        try (StorageBackend backend = pipeline.sink().storage()
                .withRetryAtMost(Duration.ofSeconds(TIMEOUT_SECONDS)).open()) {
            backend.list(STORAGE_PROBE);
            // a location that answers but takes no file (no permission, a file where the folder goes, a read-only
            // store) failed only at the run's first commit: write a small file where the run writes its own, and
            // remove it
            String probe = STORAGE_PROBE + UUID.randomUUID();
            backend.writeAtomically(probe, "sluice validate --connect".getBytes(StandardCharsets.UTF_8));
            backend.delete(probe);
            console.result("storage: " + backend.describe() + " answers, and takes a file");
            return true;
        } catch (Exception e) {
            console.result("storage: " + pipeline.sink().location() + " FAILED: " + reason(e));
            return false;
        }
    }

    static String reason(Throwable e) {
        Throwable t = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        if (t instanceof java.util.concurrent.TimeoutException
                || t instanceof org.apache.kafka.common.errors.TimeoutException) {
            return "no answer within " + TIMEOUT_SECONDS + " s (wrong address or port, a firewall, or TLS/SASL "
                    + "settings that do not match the listener)";
        }
        if (t instanceof java.nio.file.FileSystemException fs) {
            // its message is the path alone ("FAILED: /proc/nope", a new user's run): say what happened to it
            return fileProblem(fs);
        }
        return t.getMessage() != null ? ErrorWords.withoutClassNames(t.getMessage()) : t.toString();
    }

    private static String fileProblem(java.nio.file.FileSystemException e) {
        String what = e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e instanceof java.nio.file.NoSuchFileException ? "no such file or folder"
                : e instanceof java.nio.file.FileAlreadyExistsException ? "a file is already there"
                : e instanceof java.nio.file.NotDirectoryException ? "not a folder"
                : e.getReason() != null ? e.getReason() : "the file system refused";
        return e.getFile() + ": " + what + (e.getOtherFile() == null ? "" : " (" + e.getOtherFile() + ")");
    }
}
