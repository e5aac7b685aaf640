#!/usr/bin/python3
"""A job page's "say when unsure" in headless Chromium, as a coach sees it: sign in with the club's
key, open the job, see the marker at the top of the result ("2 to review"), follow it to the
table of rows with their confidence and review reasons, the rows to look at marked. Screenshots
go to --out.

Run by Tests/IntegrationTests/ReviewMarkerTests.swift; shares check.py's browser set-up and
checks. Prints one line per check; the first failure prints the page and exits 1.
"""
import argparse

from selenium.webdriver.common.by import By

from check import check, drive, shot, sign_in, wait


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--club-key", required=True)
    parser.add_argument("--job", required=True, help="the club's job whose rows carry review reasons")
    parser.add_argument("--expect", required=True, help="the marker's text, e.g. '2 to review'")
    parser.add_argument("--rows", type=int, required=True, help="how many rows are marked")
    parser.add_argument("--reason", required=True, help="a review message the table shows")
    parser.add_argument("--out", required=True, help="directory for screenshots")
    args = parser.parse_args()
    drive(args.out, lambda driver: look(driver, args), "all review checks passed")


def look(driver, args):
    sign_in(driver, args.url, args.club_key)
    driver.get(f"{args.url}/dashboard/jobs/{args.job}")
    wait(driver, lambda d: d.find_elements(By.ID, "review-count"), "the job's result has a review marker")
    marker = driver.find_element(By.ID, "review-count")
    check(marker.text == args.expect, f"the marker says '{args.expect}' ('{marker.text}')")
    check(marker.is_displayed() and marker.location["y"] < driver.find_element(By.ID, "review").location["y"],
          "the marker is shown above the review table, at the top of the result")
    shot(driver, args.out, "job-review-top")
    marker.click()
    rows = driver.find_elements(By.CSS_SELECTOR, "#review-rows tr.needs-review")
    check(len(rows) == args.rows, f"{args.rows} rows are marked for review ({len(rows)})")
    table = driver.find_element(By.ID, "review-rows").text
    check(args.reason in table, f"the table shows the reason '{args.reason}'")
    driver.execute_script("document.getElementById('review').scrollIntoView()")
    shot(driver, args.out, "job-review-table")


if __name__ == "__main__":
    main()
