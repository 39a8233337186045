package dev.spanprofile.otlp;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An {@code Error} while building a request (an {@code OutOfMemoryError} on a huge batch,
 * a class that cannot be linked) must not end the periodic export: it is logged once, and
 * the next exports go on.
 */
class OtlpExportErrorTest {

	private static final int FAILING_EXPORTS = 3;

	@Test
	void anErrorBuildingARequestIsLoggedOnceAndTheExportGoesOn() {
		List<LogRecord> warnings = new CopyOnWriteArrayList<>();
		Logger logger = Logger.getLogger(OtlpProfilesExporter.class.getName());
		Handler capture = new Handler() {

			@Override
			public void publish(LogRecord record) {
				if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
					warnings.add(record);
				}
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}

		};
		logger.addHandler(capture);
		AtomicInteger encoded = new AtomicInteger();
		OtlpSettings settings = new OtlpSettings(URI.create("http://127.0.0.1:9/v1development/profiles"), Map.of(),
				false, Duration.ofMillis(20), Duration.ofMillis(200), 1, 1, true);
		OtlpProfilesExporter exporter = new OtlpProfilesExporter(settings, (batch, start, duration) -> {
			if (encoded.incrementAndGet() <= FAILING_EXPORTS) {
				throw new OutOfMemoryError("Java heap space (thrown by the test)");
			}
			return new byte[] { 1 };
		});
		try {
			for (int i = 0; i <= FAILING_EXPORTS; i++) {
				exporter.keep(List.of(samples(i)));
				int attempt = i + 1;
				await().atMost(Duration.ofSeconds(10)).until(() -> encoded.get() >= attempt);
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> exporter.requests() == 1);
			assertThat(encoded.get()).isEqualTo(FAILING_EXPORTS + 1);
			assertThat(warnings).as("one warning for the stretch of failed exports").hasSize(1);
			assertThat(warnings.get(0).getThrown()).isInstanceOf(OutOfMemoryError.class);
		}
		finally {
			exporter.close();
			logger.removeHandler(capture);
		}
	}

	private static LinkedSamples samples(int span) {
		FrameTable frames = new FrameTable();
		StackTree tree = new StackTree();
		tree.add(new int[] { frames.intern("com.example.Work.run", FrameKind.JAVA) }, 1);
		return new LinkedSamples("0af7651916cd43dd8448eb211c80319c", String.format("%016x", span + 1), SampleKind.CPU,
				tree);
	}

}
