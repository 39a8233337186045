package dev.spanprofile.upload;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class UploadQueueTest {

	@Test
	void whileTheServerHangsTheOldestWaitingItemsAreDroppedAndTheNewestSent() throws Exception {
		CountDownLatch serverBack = new CountDownLatch(1);
		List<String> sent = new CopyOnWriteArrayList<>();
		UploadQueue<String> queue = new UploadQueue<>((item) -> {
			// The first upload hangs until the server is back; the rest go through at once.
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
			// p0 is in flight; of p1..p6 only the newest two wait, the four before them are dropped.
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

}
