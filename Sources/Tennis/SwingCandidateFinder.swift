/// The `swings` stage: wrist-speed peaks → windows → contact, keyframes and type.
enum SwingCandidateFinder {
    static func find(track: [PoseFrame], objects: [ObjectFrame], options: TennisOptions) -> [SwingCandidate] {
        let kinematics = TrackKinematics(track: track, hand: options.dominantHand)
        let samples = kinematics.samples
        let peaks = PeakFinder.peaks(in: samples, minSeparation: SwingTuning.minPeakSeparation)
            .filter { !BodyTravel.isTravel(peak: $0, samples: samples, hand: options.dominantHand) }
        return peaks.enumerated().map { k, peak in
            let phases = SwingPhases.around(
                peak: peak, in: samples,
                previousPeak: k > 0 ? samples[peaks[k - 1]].time : nil,
                nextPeak: k + 1 < peaks.count ? samples[peaks[k + 1]].time : nil,
                contactNear: { window in
                    ContactFinder.contact(in: window, samples: samples, objects: objects, interval: kinematics.interval)
                },
                overheadNear: { window in
                    OverheadContact.contact(near: peak, in: window, samples: samples, hand: options.dominantHand)
                })
            let window = phases.preparation...phases.recovery
            let type = SwingClassifier.classify(contact: phases.contact, window: window, samples: samples, hand: options.dominantHand)
            let peakSpeed = samples[peak].speed ?? 0
            let edgeSpeed = max(samples[phases.preparation].speed ?? 0, samples[phases.recovery].speed ?? 0)
            let times = phases.keyFrameTimes(in: samples)
            return SwingCandidate(type: type, startTime: times.preparation, endTime: times.recovery, keyFrameTimes: times,
                                  contactSource: phases.contactFromObjects ? .racketBall : .wristPeak,
                                  peakTime: samples[peak].time, peakSpeed: peakSpeed, peakThreshold: SwingTuning.peakThreshold(span: samples[peak].span),
                                  prominence: peakSpeed > 0 ? min(1, max(0, 1 - edgeSpeed / peakSpeed)) : 0)
        }
    }
}
