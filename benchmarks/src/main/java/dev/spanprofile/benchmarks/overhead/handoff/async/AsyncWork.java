package dev.spanprofile.benchmarks.overhead.handoff.async;

import java.util.concurrent.CompletableFuture;

import dev.spanprofile.benchmarks.overhead.handoff.Rounds;

import org.springframework.scheduling.annotation.Async;
import org.springframework.stereotype.Service;

/** The request's work, run on Boot's task executor ({@code task-N} threads). */
@Service
class AsyncWork {

	@Async
	CompletableFuture<Long> compute(int rounds) {
		return CompletableFuture.completedFuture(Rounds.compute(rounds));
	}

}
