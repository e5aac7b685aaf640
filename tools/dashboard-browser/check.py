#!/usr/bin/python3
"""Drives the dashboard in headless Chromium (Debian's chromium and chromium-driver, through
Debian's python3-selenium) the way a user would, and checks what the pages show.

Run by Tests/IntegrationTests/DashboardBrowserTests.swift against a stack it started with real
jobs. Each check prints one line; the first failure prints what the page showed and exits 1.
Screenshots of every page go to --out.
"""
import argparse
import os
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


class CheckFailed(Exception):
    pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--club-key", required=True, help="a key of club alpha")
    parser.add_argument("--operator-key", required=True)
    parser.add_argument("--slow-job", required=True, help="alpha's job that runs for seconds with progress")
    parser.add_argument("--failed-job", required=True, help="alpha's job that failed once")
    parser.add_argument("--other-club-job", required=True, help="beta's job")
    parser.add_argument("--worker", required=True, help="the id of the running worker")
    parser.add_argument("--markup", required=True, help="the markup stored as club gamma's file name and batch label")
    parser.add_argument("--markup-job", required=True, help="gamma's job of the file named with markup")
    parser.add_argument("--out", required=True, help="directory for screenshots")
    args = parser.parse_args()
    drive(args.out, lambda driver: run(driver, args), "all dashboard checks passed")


def drive(out, steps, passed):
    """Runs `steps` in a fresh browser, screenshots to `out`; the first failed check prints what the
    page showed and exits 1, else `passed` is printed."""
    os.makedirs(out, exist_ok=True)
    driver = browser()
    try:
        steps(driver)
    except (CheckFailed, WebDriverException) as failure:
        # A WebDriver error's own text is mostly chromedriver's native stack; its first line names it.
        reason = failure if isinstance(failure, CheckFailed) else f"{type(failure).__name__}: {failure.msg}"
        shot(driver, out, "failure")
        # The reason goes last, where a log's tail keeps it.
        print(f"--- page {driver.current_url} ---\n{driver.find_element(By.TAG_NAME, 'body').text[:3000]}\n---\nFAILED: {reason}")
        sys.exit(1)
    finally:
        driver.quit()
    print(passed)


def browser():
    """Debian's headless Chromium through its chromedriver, 1280 × 1000."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def shot(driver, out, name):
    path = os.path.join(out, f"{name}.png")
    driver.save_screenshot(path)
    print(f"screenshot {path}")


def check(condition, message):
    if not condition:
        raise CheckFailed(message)
    print(f"ok: {message}")


def wait(driver, predicate, message, timeout=20):
    """Polls `predicate` until it holds. While a click's navigation is under way, the old page's
    elements go stale and the new one may have no body or script context yet: WebDriver answers
    those moments with errors, which are waited out like a false; the last one is named if time
    runs out."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            if predicate(driver):
                break
        except WebDriverException as error:
            last_error = error
        if time.monotonic() > deadline:
            detail = f" (the browser last said {type(last_error).__name__}: {last_error.msg})" if last_error else ""
            raise CheckFailed(f"timed out after {timeout} s waiting until {message}{detail}")
        time.sleep(0.1)
    print(f"ok: {message}")


def texts(driver, css):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, css)]


def sign_in(driver, url, key):
    driver.get(url + "/dashboard")
    wait(driver, lambda d: d.current_url.endswith("/dashboard/login"), "a visitor without a session is sent to the sign-in page")
    driver.find_element(By.ID, "key").send_keys(key)
    driver.find_element(By.CSS_SELECTOR, "form[action='/dashboard/login'] button").click()
    wait(driver, lambda d: d.current_url.endswith("/dashboard"), "signing in opens the overview")


def sign_out(driver):
    driver.find_element(By.CSS_SELECTOR, "form.who button").click()
    wait(driver, lambda d: d.current_url.endswith("/dashboard/login"), "signing out returns to the sign-in page")


def run(driver, a):
    url = a.url
    # --- a club key: its club only ---
    driver.get(url + "/dashboard")
    shot(driver, a.out, "01-sign-in")
    sign_in(driver, url, a.club_key)
    cookie = driver.get_cookie("reelwork_session")
    check(cookie is not None and cookie.get("httpOnly") and cookie.get("sameSite") == "Strict",
          "the session cookie is HttpOnly and SameSite=Strict")
    clubs = [e.get_attribute("data-club") for e in driver.find_elements(By.CSS_SELECTOR, "#clubs tbody tr[data-club]")]
    check(clubs == ["alpha"], f"a club key's overview shows its own club only (saw {clubs})")
    alpha = driver.find_element(By.CSS_SELECTOR, "#clubs tr[data-club='alpha']")
    failed = alpha.find_element(By.CSS_SELECTOR, "[data-field='failed']").text
    check(failed == "1", f"the overview counts alpha's failed job (saw {failed})")
    check(driver.find_elements(By.ID, "throughput-chart"), "the overview draws the last hour's chart")
    shot(driver, a.out, "02-overview-club")

    driver.get(url + "/dashboard/jobs")
    rows = [e.get_attribute("data-job") for e in driver.find_elements(By.CSS_SELECTOR, "#jobs tbody tr[data-job]")]
    check(a.slow_job in rows and a.failed_job in rows, "the jobs page lists alpha's jobs")
    check(a.other_club_job not in rows, "the jobs page does not list another club's job")
    shot(driver, a.out, "03-jobs-club")
    driver.get(url + "/dashboard/jobs?status=failed")
    rows = [e.get_attribute("data-job") for e in driver.find_elements(By.CSS_SELECTOR, "#jobs tbody tr[data-job]")]
    check(rows == [a.failed_job], f"filtering by status=failed shows exactly the failed job (saw {rows})")
    driver.get(url + f"/dashboard/jobs/{a.other_club_job}")
    check("No job with id" in driver.find_element(By.TAG_NAME, "body").text, "another club's job page says there is no such job")

    # --- a stage's progress advances live, without a reload ---
    driver.get(url + f"/dashboard/jobs/{a.slow_job}")
    driver.execute_script("window.__sameDocument = true;")

    def progress(d):
        items = d.find_elements(By.CSS_SELECTOR, "#stages li[data-stage='noop']")
        return int(items[0].get_attribute("data-progress")) if items else -1

    first = []
    wait(driver, lambda d: first.append(progress(d)) or first[-1] >= 0, "the running job's page shows its noop stage")
    first = first[-1]
    shot(driver, a.out, "04-job-running")
    wait(driver, lambda d: progress(d) > first, f"the stage's progress advances past {first}% on the open page")
    check(driver.execute_script("return window.__sameDocument === true;"), "it advanced without a reload")
    stream, seen = driver.execute_script(
        "const s = document.getElementById('stages'); return [s.dataset.stream, s.dataset.eventsSeen];")
    check(stream == "open" and int(seen or 0) > 0, f"the page follows the job's live events (stream {stream}, {seen} events seen)")
    shot(driver, a.out, "05-job-progress-advanced")

    # --- the failed group's retry button ---
    driver.get(url + "/dashboard/failed")
    groups = driver.find_elements(By.CSS_SELECTOR, "#failed-groups tbody tr[data-kind]")
    check(len(groups) == 1 and "invalid input requested" in groups[0].text, "the failed page groups alpha's failed job")
    shot(driver, a.out, "06-failed-groups")
    groups[0].find_element(By.CSS_SELECTOR, "button.retry").click()
    wait(driver, lambda d: "Retried 1 job" in d.find_element(By.TAG_NAME, "body").text, "pressing Retry retries the group's one job")
    driver.get(url + "/dashboard/failed")
    check(not driver.find_elements(By.CSS_SELECTOR, "#failed-groups tbody tr[data-kind]") and driver.find_elements(By.ID, "no-failures"),
          "the retried job is gone from the failed list")
    shot(driver, a.out, "07-failed-after-retry")
    driver.get(url + f"/dashboard/jobs/{a.failed_job}")
    wait(driver, lambda d: d.find_element(By.ID, "job-status").text == "succeeded", "the retried job then succeeds", timeout=60)
    shot(driver, a.out, "08-job-succeeded")
    sign_out(driver)

    # --- an operator: every club, the workers, a malformed filter ---
    sign_in(driver, url, a.operator_key)
    clubs = sorted(e.get_attribute("data-club") for e in driver.find_elements(By.CSS_SELECTOR, "#clubs tbody tr[data-club]"))
    check("alpha" in clubs and "beta" in clubs, f"an operator's overview shows every club (saw {clubs})")
    shot(driver, a.out, "09-overview-operator")
    driver.get(url + "/dashboard/workers")
    workers = [e.get_attribute("data-worker") for e in driver.find_elements(By.CSS_SELECTOR, "#workers tbody tr[data-worker]")]
    check(a.worker in workers, f"the workers page lists the running worker (saw {workers})")
    shot(driver, a.out, "10-workers")
    driver.get(url + "/dashboard/jobs?from=yesterday")
    body = driver.find_element(By.TAG_NAME, "body").text
    check("is not a time" in body, "a malformed time in the filter gets a page that says so")
    shot(driver, a.out, "11-bad-filter")
    driver.get(url + "/dashboard/jobs?club=beta")
    rows = [e.get_attribute("data-job") for e in driver.find_elements(By.CSS_SELECTOR, "#jobs tbody tr[data-job]")]
    check(rows == [a.other_club_job], f"an operator filters by club (saw {rows})")
    shot(driver, a.out, "12-jobs-operator")
    driver.get(url + "/dashboard/jobs?sport=tennis&club=beta")
    links = driver.find_elements(By.ID, "export-csv")
    check(len(links) == 1 and "/dashboard/results.csv?" in links[0].get_attribute("href"),
          "a jobs page filtered by sport links the season's CSV")
    shot(driver, a.out, "14-jobs-export")

    # --- markup stored in a file name and a batch label is text, and nothing of it runs ---
    for path, what in ((f"/dashboard/jobs/{a.markup_job}", "the job's page (file name)"), ("/dashboard/jobs?club=gamma", "the jobs list (file name)"),
                       ("/dashboard/batches", "the batches page (label)")):
        driver.get(url + path)
        body = driver.find_element(By.TAG_NAME, "body").text
        check(a.markup in body, f"{what} shows the stored markup as text")
        check(not driver.find_elements(By.CSS_SELECTOR, "img[src='x-markup']"), f"{what} has no element made from it")
        check(driver.execute_script("return window.__xss === undefined;"), f"{what} ran none of its script")
    shot(driver, a.out, "13-markup-as-text")


if __name__ == "__main__":
    main()
