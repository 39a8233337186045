package dev.spanprofile.sample;

import java.util.concurrent.CompletableFuture;

import org.springframework.core.task.TaskExecutor;
import org.springframework.stereotype.Service;

/**
 * Charges cards on a separate pool: the trace context travels with the task
 * ({@code spring.task.execution.propagate-context=true}), so the risk scoring on the pool
 * thread lands in the checkout's span.
 */
@Service
class PaymentService {

	private final TaskExecutor executor;

	PaymentService(TaskExecutor applicationTaskExecutor) {
		this.executor = applicationTaskExecutor;
	}

	String checkout(String cartId) {
		CompletableFuture<Long> risk = CompletableFuture.supplyAsync(() -> {
			CpuWork.burn(60, PaymentService::computeRiskScore);
			return (long) cartId.length();
		}, this.executor);
		return "charged " + cartId + " (risk " + risk.join() + ")";
	}

	static long computeRiskScore(long seed) {
		long h = seed;
		for (int i = 0; i < 30_000; i++) {
			h = 31 * h + Long.rotateLeft(i * 0x9E3779B97F4A7C15L, i & 63);
		}
		return h;
	}

}
