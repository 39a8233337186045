package dev.spanprofile.upload;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class UploadQueueTest {

	@Test
	void whileTheServerHangsTheOldestWaitingItemsAreDroppedAndTheNewestSent() throws Exception {
		CountDownLatch serverBack = new CountDownLatch(1);
		List<String> sent = new CopyOnWriteArrayList<>();
		UploadQueue<String> queue = new UploadQueue<>((item) -> {
			// The first upload hangs until the server is back; the rest go through at
			// once.
			serverBack.await(10, TimeUnit.SECONDS);
			sent.add(item);
		}, 2, "http://test", "upload-queue-test");
		try {
			queue.add("p0");
			await().atMost(Duration.ofSeconds(5)).until(() -> queue.queued() == 0);
			for (int i = 1; i <= 6; i++) {
				queue.add("p" + i);
				assertThat(queue.queued()).isLessThanOrEqualTo(2);
			}
			// p0 is in flight; of p1..p6 only the newest two wait, the four before them
			// are dropped.
			assertThat(queue.dropped()).isEqualTo(4);
			serverBack.countDown();
			await().atMost(Duration.ofSeconds(5)).until(() -> sent.size() == 3);
			assertThat(sent).containsExactly("p0", "p5", "p6");
			assertThat(queue.uploaded()).isEqualTo(3);
			assertThat(queue.failed()).isZero();
		}
		finally {
			queue.stop();
		}
	}

	@Test
	void anErrorThrownByTheUploaderFailsThatItemOnlyAndIsLoggedOnce() throws Exception {
		List<LogRecord> warnings = new CopyOnWriteArrayList<>();
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
		Logger logger = Logger.getLogger(UploadQueue.class.getName());
		logger.addHandler(capture);
		List<String> sent = new CopyOnWriteArrayList<>();
		UploadQueue<String> queue = new UploadQueue<>((item) -> {
			if (item.startsWith("broken")) {
				// What a client library missing a class, or a full heap, throws.
				throw new NoClassDefFoundError("com/example/MissingCodec");
			}
			sent.add(item);
		}, 4, "http://test", "upload-queue-error-test");
		try {
			for (String item : List.of("broken-1", "broken-2", "p1", "p2")) {
				queue.add(item);
				await().atMost(Duration.ofSeconds(5)).until(() -> queue.queued() == 0);
			}
			await().atMost(Duration.ofSeconds(5)).until(() -> sent.size() == 2);
			assertThat(sent).containsExactly("p1", "p2");
			assertThat(queue.failed()).isEqualTo(2);
			assertThat(queue.uploaded()).isEqualTo(2);
			assertThat(warnings).as("one warning for both failed items").hasSize(1);
			assertThat(warnings.get(0).getThrown()).isInstanceOf(NoClassDefFoundError.class);
		}
		finally {
			queue.stop();
			logger.removeHandler(capture);
		}
	}

}
