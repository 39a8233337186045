package dev.spanprofile.sample;

import org.springframework.stereotype.Service;

/**
 * Reservations serialised on one lock: under load, requests spend their time waiting, not
 * computing. Their CPU flame graphs stay thin; the wall-clock view shows where the time
 * went, the lock view how long each waited to enter.
 */
@Service
class InventoryService {

	private final Object stockLock = new Object();

	private int reserved;

	int reserve(String sku) {
		synchronized (this.stockLock) {
			holdStockLock();
			return ++this.reserved;
		}
	}

	private void holdStockLock() {
		try {
			Thread.sleep(30);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
