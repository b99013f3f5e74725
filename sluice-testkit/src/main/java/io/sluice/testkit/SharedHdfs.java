package io.sluice.testkit;

import io.sluice.testkit.hdfs.HdfsServer;

/** One HDFS per test JVM, started on first use. Tests write under unique paths. */
public final class SharedHdfs {

    private SharedHdfs() {
    }

    private static final class Holder {
        static final HdfsServer SERVER = start();

        private static HdfsServer start() {
            HdfsServer server = HdfsServer.start("shared-hdfs");
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "shared-hdfs-close"));
            return server;
        }
    }

    public static HdfsServer server() {
        return Holder.SERVER;
    }
}
