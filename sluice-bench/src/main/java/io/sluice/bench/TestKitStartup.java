package io.sluice.bench;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.hdfs.HdfsServer;
import io.sluice.testkit.s3.S3Server;

/** Start-up times of the test kit's servers, three rounds: {@code bench/run testkit-startup}. */
public final class TestKitStartup {
    private TestKitStartup() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 3; i++) {
            long t0 = System.nanoTime();
            KafkaCluster k = KafkaCluster.builder().name("m").start();
            long t1 = System.nanoTime();
            k.node(1).kill(); long t2 = System.nanoTime(); k.node(1).start(); long t3 = System.nanoTime();
            k.close();
            long t3b = System.nanoTime();
            KafkaCluster trio = KafkaCluster.builder().name("trio").nodes(3).start(); long t4 = System.nanoTime(); trio.close();
            long t5 = System.nanoTime();
            KafkaCluster tls = KafkaCluster.builder().name("tls").tls().scram().start(); long t6 = System.nanoTime(); tls.close();
            long t7 = System.nanoTime();
            S3Server s3 = S3Server.start("m"); long t8 = System.nanoTime(); s3.close();
            long t9 = System.nanoTime();
            HdfsServer h = HdfsServer.start("m"); long t10 = System.nanoTime(); h.close();
            System.out.printf("broker %.2fs restart-after-kill %.2fs 3-node %.2fs tls+scram %.2fs s3proxy %.2fs hdfs %.2fs%n",
                (t1-t0)/1e9, (t3-t2)/1e9, (t4 - t3b) / 1e9, (t6-t5)/1e9, (t8-t7)/1e9, (t10-t9)/1e9);
        }
        System.exit(0);
    }
}
